import type * as acp from '@agentclientprotocol/sdk';
import type { ApprovalPosture, CwSnapshot } from '@cw/core';
import { listRoutes } from '../render/list-routes.js';

// What an editor may switch for a session: the approval posture as ACP session modes, and the route
// as a `model` config option (ACP has no model method of its own; docs/editors.md).

type Core = typeof import('@cw/core');

/** The id of the route config option. */
export const ROUTE_OPTION = 'route';

// The postures, each with the words an editor shows in its mode picker.
const MODES: readonly (acp.SessionMode & { readonly id: ApprovalPosture })[] = [
  { id: 'ask', name: 'Ask', description: 'Reads run; anything that writes or runs a command asks first.' },
  { id: 'read-only', name: 'Read only', description: 'Reads run; writes and commands are refused.' },
  { id: 'workspace', name: 'Workspace', description: 'Reads, edits and commands in the workspace run without asking.' },
  { id: 'never', name: 'No tools', description: 'Tool calls are handed back unrun.' },
];

/** Whether a mode id is one of cw's postures. */
export function isPosture(id: string): id is ApprovalPosture {
  return MODES.some((mode) => mode.id === id);
}

/** The modes, with `current` selected. */
export function sessionModes(current: ApprovalPosture): acp.SessionModeState {
  return { currentModeId: current, availableModes: MODES.map((mode) => ({ ...mode })) };
}

/**
 * The route picker: every route the snapshot can resolve whose id is a printable label, the
 * current one selected. A route id that is not a plain label is left out rather than printed.
 */
export function sessionConfigOptions(core: Core, snapshot: CwSnapshot, current: string): acp.SessionConfigOption[] {
  const ids = routeIds(core, snapshot);
  if (!ids.includes(current)) ids.unshift(current);
  return [
    {
      type: 'select',
      id: ROUTE_OPTION,
      name: 'Route',
      description: 'The provider route (and its model) turns are sent on: cw routes lists them.',
      category: 'model',
      currentValue: current,
      options: ids.map((id) => ({ value: id, name: id })),
    },
  ];
}

/** The routes the snapshot can resolve, by printable id. */
export function routeIds(core: Core, snapshot: CwSnapshot): string[] {
  return listRoutes(core, snapshot)
    .routes.map((entry) => entry.row.route_id)
    .filter((id) => core.safeIdentifier(id) === id);
}
