import type { HiddenPath } from './hidden-paths.js';

/**
 * Variables that point a command at a socket of the user's session: an agent that signs with the
 * user's key, a terminal multiplexer that types into the user's shell, the desktop bus, the display.
 * The sandbox removes them from every command's environment, whatever environment it is given
 * (docs/security.md, "Host sockets").
 */
export const HOST_SOCKET_VARIABLES = [
  'SSH_AUTH_SOCK',
  'SSH_AGENT_PID',
  'GPG_AGENT_INFO',
  'TMUX',
  'TMUX_PANE',
  'STY',
  'DBUS_SESSION_BUS_ADDRESS',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'XAUTHORITY',
  'XDG_RUNTIME_DIR',
] as const;

/** The environment without the session's socket variables. */
export function withoutHostSockets(env: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = { ...env };
  for (const name of HOST_SOCKET_VARIABLES) delete out[name];
  return out;
}

/**
 * The folders where a session keeps its sockets, hidden like credentials: the runtime folder (ssh and
 * gpg agents, dbus, wayland, pulseaudio) and the X11 socket folder. The seccomp filter already refuses
 * every Unix socket; hiding them also keeps their names and files out of reach.
 */
export function hostSocketFolders(env: Readonly<Record<string, string | undefined>>, uid: number | null): HiddenPath[] {
  const out: HiddenPath[] = [];
  const runtime = env['XDG_RUNTIME_DIR'];
  if (runtime?.startsWith('/')) out.push({ path: runtime, label: 'runtime folder' });
  if (uid !== null) out.push({ path: `/run/user/${uid}`, label: 'runtime folder' });
  out.push({ path: '/tmp/.X11-unix', label: 'X11 sockets' });
  return out;
}
