import { open } from 'node:fs/promises';

/** How much of a file's start is checked for a NUL byte, the mark of a binary file. */
export const BINARY_SNIFF_BYTES = 8192;

/** Whether a file's first bytes look binary: a NUL byte in the first 8 KiB. */
export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** Reads up to `length` bytes from the start of a file (fewer at its end). */
export async function readPrefix(filePath: string, length: number = BINARY_SNIFF_BYTES): Promise<Buffer> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await handle.read(buffer, filled, length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}
