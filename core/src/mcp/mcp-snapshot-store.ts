import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../validation/lazy-zod.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { withFileLock } from '../state/file-lock.js';

const jsonObject = lazySchema((z) => z.record(z.string(), z.json()));

const snapshotTool = lazySchema((z) =>
  z
    .object({
      name: z.string().min(1),
      /** The tool's description as the server gave it; empty when it gave none. */
      description: z.string(),
      inputSchema: jsonObject,
      /** The server's hints (readOnlyHint, destructiveHint, …) as it gave them; absent when it gave none. */
      annotations: jsonObject.optional(),
    })
    .strict(),
);

const snapshotServer = lazySchema((z) =>
  z
    .object({
      /** mcpServerFingerprint of the config entry the tools were listed with. */
      fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
      /** What the server called itself when it connected; null when it said nothing usable. */
      server: z.object({ name: z.string(), version: z.string() }).strict().nullable(),
      tools: z.array(snapshotTool),
      /** When the tools were listed, as an ISO 8601 timestamp. */
      refreshed_at: z.string().min(1),
    })
    .strict(),
);

const snapshotFile = lazySchema((z) =>
  z
    .object({
      version: z.literal(1),
      servers: z.record(z.string(), snapshotServer),
    })
    .strict(),
);

/** `$CW_HOME/mcp/snapshot.json`: the tools each MCP server listed at its last refresh. */
export type McpSnapshot = z.output<typeof snapshotFile>;
/** One server's entry in the MCP snapshot. */
export type McpSnapshotEntry = z.output<typeof snapshotServer>;
/** One tool as an MCP server listed it. */
export type McpSnapshotTool = z.output<typeof snapshotTool>;

/** The snapshot with no servers: what a missing file reads as. */
export function emptyMcpSnapshot(): McpSnapshot {
  return { version: 1, servers: {} };
}

/** Where the MCP snapshot lives in a cw home. */
export function mcpSnapshotPath(home: string): string {
  return join(home, 'mcp', 'snapshot.json');
}

/**
 * The MCP snapshot file exists but cannot be used: unreadable, not JSON, or not the shape cw writes.
 * The message names no path and no content; `cw mcp refresh` rebuilds the file.
 */
export class McpSnapshotError extends Error {
  override readonly name = 'McpSnapshotError';
  readonly exitCode = 1;
  readonly code: 'corrupt' | 'unreadable';
  /** The message as printed: cw's own words only. */
  readonly safeMessage: string;
  constructor(code: 'corrupt' | 'unreadable', reason: string) {
    const text =
      code === 'corrupt'
        ? `the MCP snapshot in the cw home is corrupt (${reason}); run cw mcp refresh to rebuild it`
        : `the MCP snapshot in the cw home cannot be read (${reason})`;
    super(text);
    this.code = code;
    this.safeMessage = text;
  }
}

/** Reads and validates the MCP snapshot; a missing file is the empty snapshot, anything unusable throws McpSnapshotError. */
export async function readMcpSnapshot(home: string): Promise<McpSnapshot> {
  let text: string;
  try {
    text = await readFile(mcpSnapshotPath(home), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return emptyMcpSnapshot();
    throw new McpSnapshotError('unreadable', code ?? 'read error');
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new McpSnapshotError('corrupt', 'not JSON');
  }
  const parsed = snapshotFile.safeParse(raw);
  if (!parsed.success) throw new McpSnapshotError('corrupt', 'not the shape cw writes');
  return parsed.data;
}

/**
 * Read, change and write the snapshot as one step, holding a lock next to the file so two cw
 * processes refreshing at once cannot lose each other's servers. The file is replaced atomically. A
 * corrupt file counts as empty here (a write is how it gets repaired); an unreadable one throws.
 * Returns what was written.
 */
export async function updateMcpSnapshot(
  home: string,
  change: (current: McpSnapshot) => McpSnapshot,
): Promise<McpSnapshot> {
  const file = mcpSnapshotPath(home);
  await mkdir(join(home, 'mcp'), { recursive: true, mode: 0o700 });
  return withFileLock(file, async () => {
    const current = await readMcpSnapshot(home).catch((error: unknown) => {
      if (error instanceof McpSnapshotError && error.code === 'corrupt') return emptyMcpSnapshot();
      throw error;
    });
    // Checked before writing too: cw never leaves a file it would refuse to read.
    const next = snapshotFile.parse(change(current));
    await writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`);
    return next;
  });
}

/** Replaces the whole snapshot (under the same lock as updateMcpSnapshot). */
export async function writeMcpSnapshot(home: string, snapshot: McpSnapshot): Promise<void> {
  await updateMcpSnapshot(home, () => snapshot);
}
