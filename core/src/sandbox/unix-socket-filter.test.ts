import { describe, expect, it } from 'vitest';
import { FILTER_ARCHES, unixSocketFilter } from './unix-socket-filter.js';

/** Runs a classic BPF seccomp program the way the kernel does, for the few opcodes the filter uses. */
function run(program: Buffer, call: { nr: number; arch: number; first: number }): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(call.nr, 0);
  data.writeUInt32LE(call.arch, 4);
  data.writeBigUInt64LE(BigInt(call.first), 16);
  let accumulator = 0;
  for (let pc = 0; pc < program.length / 8; pc += 1) {
    const code = program.readUInt16LE(pc * 8);
    const jumpTrue = program.readUInt8(pc * 8 + 2);
    const jumpFalse = program.readUInt8(pc * 8 + 3);
    const value = program.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) accumulator = data.readUInt32LE(value);
    else if (code === 0x06) return value;
    else if (code === 0x15) pc += accumulator === value ? jumpTrue : jumpFalse;
    else if (code === 0x35) pc += accumulator >= value ? jumpTrue : jumpFalse;
    else throw new Error(`unexpected opcode ${code}`);
  }
  throw new Error('the program fell off its end');
}

const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const KILL = 0x80000000;

describe('unixSocketFilter', () => {
  for (const [arch, target] of Object.entries(FILTER_ARCHES)) {
    const program = unixSocketFilter(arch) as Buffer;
    const call = (nr: number, first: number, audit: number = target.audit) => run(program, { nr, arch: audit, first });

    it(`${arch}: socket(AF_UNIX) is refused with EPERM; AF_INET, AF_INET6 and other calls pass`, () => {
      expect(call(target.socket, 1)).toBe(EPERM);
      expect(call(target.socket, 2)).toBe(ALLOW);
      expect(call(target.socket, 10)).toBe(ALLOW);
      // The same number as a first argument of another call is not a socket.
      expect(call(target.socket + 1, 1)).toBe(ALLOW);
      expect(call(0, 1)).toBe(ALLOW);
    });

    it(`${arch}: a call from another ABI is killed, whatever its number`, () => {
      expect(call(target.socket, 1, 0x40000003)).toBe(KILL);
      expect(call(0, 0, 0x40000028)).toBe(KILL);
    });
  }

  it('x64: x32 calls (the 0x40000000 bit) are killed, so socket cannot be reached by its x32 number', () => {
    const program = unixSocketFilter('x64') as Buffer;
    expect(run(program, { nr: 0x40000000 + 41, arch: FILTER_ARCHES.x64.audit, first: 1 })).toBe(KILL);
  });

  it('has no program for a CPU it does not know, so the sandbox can refuse rather than run unfiltered', () => {
    expect(unixSocketFilter('riscv64')).toBeNull();
    expect(unixSocketFilter('__proto__')).toBeNull();
  });
});
