import { emitKeypressEvents } from 'node:readline';
import type { SessionRow } from '../run/start-session.js';

// `cw -r` / `cw chat -r` with no name on a terminal: the workspace's sessions, newest first, with
// their age, route and first prompt; ↑/↓ or a number choose, Enter opens, Esc (or Ctrl-C) leaves
// without opening any (docs/cli.md, "Starting cw").

const MOST = 9;

/** Asks which session to resume; its name, or null when the person left or there is none. */
export async function pickSession(): Promise<string | null> {
  const core = await import('@cw/core');
  const { sessionRowsHere } = await import('../run/start-session.js');
  const rows = (await sessionRowsHere(MOST)).slice(0, MOST);
  if (rows.length === 0) {
    process.stderr.write('cw: no session to resume in this workspace: start one with cw "<prompt>".\n');
    return null;
  }
  const safe = { label: core.safeIdentifier, text: core.terminalSafe };
  const lines = pickerLines(rows, safe, Date.now(), process.stdout.columns ?? 80);
  let chosen = 0;
  const draw = (again: boolean): void => {
    if (again) process.stdout.write(`\x1b[${lines.length}A`);
    for (const [index, line] of lines.entries())
      process.stdout.write(`\x1b[2K${index === chosen ? '› ' : '  '}${line}\n`);
  };
  process.stdout.write('Resume which session? ↑/↓ or a number, Enter to open, Esc to leave\n');
  draw(false);
  emitKeypressEvents(process.stdin);
  process.stdin.setRawMode?.(true);
  process.stdin.resume();
  try {
    return await new Promise<string | null>((resolve) => {
      const onKey = (text: string | undefined, key: { name?: string; ctrl?: boolean } | undefined): void => {
        const name = key?.name;
        if (name === 'escape' || (key?.ctrl === true && name === 'c')) finish(null);
        else if (name === 'return' || name === 'enter') finish(rows[chosen]?.name ?? null);
        else if (name === 'up' || name === 'down') {
          chosen = (chosen + (name === 'up' ? rows.length - 1 : 1)) % rows.length;
          draw(true);
        } else if (text !== undefined && /^[1-9]$/.test(text) && Number(text) <= rows.length) {
          chosen = Number(text) - 1;
          draw(true);
        }
      };
      const finish = (name: string | null): void => {
        process.stdin.off('keypress', onKey);
        resolve(name);
      };
      process.stdin.on('keypress', onKey);
    });
  } finally {
    process.stdin.setRawMode?.(false);
    process.stdin.pause();
  }
}

/**
 * One line per session: number, name, age, route and the first prompt, shortened to the screen.
 * Names and routes are shown as `cw sessions` shows them (`label`), the prompt terminal-safe (`text`).
 */
export function pickerLines(
  rows: readonly SessionRow[],
  safe: { readonly label: (text: string) => string; readonly text: (text: string) => string },
  now: number,
  columns: number,
): string[] {
  const names = rows.map((row) => safe.label(row.name));
  const ages = rows.map((row) => age(now - Date.parse(row.lastUsed)));
  const routes = rows.map((row) => (row.route === null ? '-' : safe.label(row.route)));
  const pad = (cells: string[], at: number): string =>
    (cells[at] ?? '').padEnd(Math.max(...cells.map((c) => c.length)));
  return rows.map((row, at) => {
    const head = `${at + 1}  ${pad(names, at)}  ${pad(ages, at)}  ${pad(routes, at)}  `;
    const room = Math.max(10, columns - 3 - head.length);
    const prompt = safe.text((row.firstPrompt ?? '').replace(/\s+/gu, ' ').trim());
    const chars = [...prompt];
    return `${head}${chars.length <= room ? prompt : `${chars.slice(0, room - 1).join('')}…`}`.trimEnd();
  });
}

function age(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours}h ago`;
  return `${Math.round(hours / 24)}d ago`;
}
