import { closeSync, constants, fstatSync, openSync, readSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { GitUnreadable, readRegularFile } from './git-repository-files.js';

// node:zlib loads when a loose object is first read: outside a git repository nothing is, and
// loading it costs a start-up a millisecond or two (docs/performance.md).
let loadedInflate: typeof import('node:zlib').inflateSync | undefined;
const inflateSync = (): typeof import('node:zlib').inflateSync =>
  (loadedInflate ??= (createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib')).inflateSync);

/** One object of a repository, inflated and with its deltas applied. */
export interface GitObject {
  readonly type: 'commit' | 'tree' | 'blob' | 'tag';
  readonly data: Buffer;
}

/** Reads objects by id from a repository's objects folder, loose or packed; never runs git. */
export interface GitObjectStore {
  /** The object with this hex id; throws `GitUnreadable` when it is missing or malformed. */
  read(id: string): GitObject;
  /** Closes the pack files it opened. */
  close(): void;
}

// cw reads commits and trees, never blobs: a bound on any one object keeps a crafted zlib stream
// from taking the memory of the process.
const MAX_OBJECT_BYTES = 64 << 20;
// Deeper delta chains than git itself writes by default (50; `gc --aggressive` 250).
const MAX_DELTA_DEPTH = 1000;
const TYPES = [undefined, 'commit', 'tree', 'blob', 'tag'] as const;
const OFS_DELTA = 6;
const REF_DELTA = 7;

/** An object store over `objectsFolder` (a repository's `objects`). */
export function openObjectStore(objectsFolder: string): GitObjectStore {
  let packs: Pack[] | null = null;
  const loadPacks = (): Pack[] => {
    if (packs !== null) return packs;
    packs = [];
    const packFolder = join(objectsFolder, 'pack');
    let names: string[] = [];
    try {
      names = readdirSync(packFolder).filter((name) => /^pack-[0-9a-f]{40}\.idx$/.test(name));
    } catch {
      // No pack folder: every object is loose.
    }
    for (const name of names) packs.push(openPack(join(packFolder, name)));
    return packs;
  };
  const store: GitObjectStore = {
    read(id) {
      if (!/^[0-9a-f]{40}$/.test(id)) throw new GitUnreadable('not an object id');
      const loose = readRegularFile(join(objectsFolder, id.slice(0, 2), id.slice(2)), {
        maxBytes: MAX_OBJECT_BYTES,
      });
      if (loose !== null) return parseLoose(loose);
      const wanted = Buffer.from(id, 'hex');
      for (const pack of loadPacks()) {
        const offset = pack.find(wanted);
        if (offset !== null) return pack.readAt(offset, store, 0);
      }
      throw new GitUnreadable('an object is missing');
    },
    close() {
      for (const pack of packs ?? []) pack.close();
    },
  };
  return store;
}

function inflate(bytes: Buffer, maxBytes: number): Buffer {
  try {
    return inflateSync()(bytes, { maxOutputLength: maxBytes });
  } catch {
    throw new GitUnreadable('an object does not inflate');
  }
}

function parseLoose(bytes: Buffer): GitObject {
  const data = inflate(bytes, MAX_OBJECT_BYTES + 64);
  const nul = data.indexOf(0);
  const header = /^(commit|tree|blob|tag) (\d+)$/.exec(data.subarray(0, Math.max(nul, 0)).toString('latin1'));
  if (nul < 0 || header === null || Number(header[2]) !== data.length - nul - 1)
    throw new GitUnreadable('a loose object has a bad header');
  return { type: header[1] as GitObject['type'], data: data.subarray(nul + 1) };
}

interface Pack {
  find(id: Buffer): number | null;
  readAt(offset: number, store: GitObjectStore, depth: number): GitObject;
  close(): void;
}

/** A pack through its v2 `.idx`: the id's position by the fan-out table and a binary search, then its offset. */
function openPack(idxFile: string): Pack {
  const idx = readRegularFile(idxFile, { maxBytes: 1 << 30 });
  if (idx === null || idx.length < 8 + 1024 || idx.readUInt32BE(0) !== 0xff744f63 || idx.readUInt32BE(4) !== 2)
    throw new GitUnreadable('a pack index is not version 2');
  const count = idx.readUInt32BE(8 + 255 * 4);
  const namesAt = 8 + 1024;
  const offsetsAt = namesAt + count * 20 + count * 4;
  const largeAt = offsetsAt + count * 4;
  if (idx.length < largeAt + 40) throw new GitUnreadable('a pack index is short');
  const offsetOf = (position: number): number => {
    const small = idx.readUInt32BE(offsetsAt + position * 4);
    if ((small & 0x80000000) === 0) return small;
    const at = largeAt + (small & 0x7fffffff) * 8;
    if (at + 8 > idx.length) throw new GitUnreadable('a pack index is short');
    return Number(idx.readBigUInt64BE(at));
  };

  const packFile = idxFile.replace(/\.idx$/, '.pack');
  let descriptor: number;
  try {
    descriptor = openSync(packFile, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    throw new GitUnreadable('a pack file is missing');
  }
  const packSize = fstatSync(descriptor).size;
  if (!fstatSync(descriptor).isFile() || packSize < 32) {
    closeSync(descriptor);
    throw new GitUnreadable('a pack file is not a file');
  }
  // Where each entry ends: the next entry's start, or the trailing checksum.
  let ends: Map<number, number> | null = null;
  const endOf = (offset: number): number => {
    if (ends === null) {
      const starts = Array.from({ length: count }, (_, position) => offsetOf(position)).sort((a, b) => a - b);
      ends = new Map(starts.map((start, position) => [start, starts[position + 1] ?? packSize - 20]));
    }
    const end = ends.get(offset);
    if (end === undefined) throw new GitUnreadable('a delta points between pack entries');
    return end;
  };
  const readBytes = (offset: number, length: number): Buffer => {
    if (offset < 0 || length < 0 || offset + length > packSize) throw new GitUnreadable('a pack entry is out of range');
    const bytes = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const got = readSync(descriptor, bytes, read, length - read, offset + read);
      if (got === 0) throw new GitUnreadable('a pack file is short');
      read += got;
    }
    return bytes;
  };
  const cache = new Map<number, GitObject>();

  const pack: Pack = {
    find(id) {
      const first = id[0] as number;
      let low = first === 0 ? 0 : idx.readUInt32BE(8 + (first - 1) * 4);
      let high = idx.readUInt32BE(8 + first * 4);
      while (low < high) {
        const middle = (low + high) >>> 1;
        const order = idx.compare(id, 0, 20, namesAt + middle * 20, namesAt + middle * 20 + 20);
        if (order === 0) return offsetOf(middle);
        if (order < 0) low = middle + 1;
        else high = middle;
      }
      return null;
    },
    readAt(offset, store, depth) {
      const cached = cache.get(offset);
      if (cached !== undefined) return cached;
      if (depth > MAX_DELTA_DEPTH) throw new GitUnreadable('a delta chain is too deep');
      const end = endOf(offset);
      const entry = readBytes(offset, end - offset);
      let at = 0;
      let byte = entry[at++] as number;
      const type = (byte >> 4) & 7;
      let size = byte & 15;
      for (let shift = 4; byte & 0x80; shift += 7) {
        byte = entry[at++] as number;
        size += (byte & 0x7f) * 2 ** shift;
      }
      let object: GitObject;
      if (type === OFS_DELTA || type === REF_DELTA) {
        let base: GitObject;
        if (type === OFS_DELTA) {
          byte = entry[at++] as number;
          let back = byte & 0x7f;
          while (byte & 0x80) {
            byte = entry[at++] as number;
            back = (back + 1) * 128 + (byte & 0x7f);
          }
          base = pack.readAt(offset - back, store, depth + 1);
        } else {
          const baseId = entry.subarray(at, at + 20);
          at += 20;
          const baseOffset = pack.find(baseId);
          base = baseOffset === null ? store.read(baseId.toString('hex')) : pack.readAt(baseOffset, store, depth + 1);
        }
        const delta = inflate(entry.subarray(at), Math.min(size, MAX_OBJECT_BYTES));
        object = { type: base.type, data: applyDelta(base.data, delta) };
      } else {
        const kind = TYPES[type];
        if (kind === undefined) throw new GitUnreadable('a pack entry has an unknown type');
        if (size > MAX_OBJECT_BYTES) throw new GitUnreadable('an object is larger than cw reads');
        const data = inflate(entry.subarray(at), size);
        if (data.length !== size) throw new GitUnreadable('a pack entry has the wrong size');
        object = { type: kind, data };
      }
      if (object.type !== 'blob') cache.set(offset, object);
      return object;
    },
    close() {
      closeSync(descriptor);
    },
  };
  return pack;
}

/** Applies a git delta (a base size, a result size, then copy and insert instructions) to its base. */
export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      if (at >= delta.length) throw new GitUnreadable('a delta is short');
      byte = delta[at++] as number;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  if (varint() !== base.length) throw new GitUnreadable('a delta names another base size');
  const size = varint();
  if (size > MAX_OBJECT_BYTES) throw new GitUnreadable('an object is larger than cw reads');
  const out = Buffer.alloc(size);
  let written = 0;
  while (at < delta.length) {
    const op = delta[at++] as number;
    if (op & 0x80) {
      let offset = 0;
      let length = 0;
      for (let bit = 0; bit < 4; bit += 1) if (op & (1 << bit)) offset += (delta[at++] as number) * 2 ** (8 * bit);
      for (let bit = 0; bit < 3; bit += 1) if (op & (16 << bit)) length += (delta[at++] as number) * 2 ** (8 * bit);
      if (length === 0) length = 0x10000;
      if (offset + length > base.length || written + length > size)
        throw new GitUnreadable('a delta copies out of range');
      base.copy(out, written, offset, offset + length);
      written += length;
    } else if (op !== 0) {
      if (at + op > delta.length || written + op > size) throw new GitUnreadable('a delta inserts out of range');
      delta.copy(out, written, at, at + op);
      at += op;
      written += op;
    } else {
      throw new GitUnreadable('a delta has a reserved instruction');
    }
  }
  if (written !== size) throw new GitUnreadable('a delta gives the wrong size');
  return out;
}
