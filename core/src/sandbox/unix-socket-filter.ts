// The seccomp program bubblewrap installs for every sandboxed command (docs/security.md, "Host
// sockets"): `socket(AF_UNIX, …)` fails with EPERM, everything else is allowed. A network namespace
// does not cover sockets bound to a path (docker, dbus, X11, ssh-agent, tmux), so the one way to keep
// them out of reach without knowing where they all are is to refuse creating the socket at all.
// `socketpair` stays allowed: its two ends are new and can reach nothing that exists.

// Classic BPF opcodes (linux/filter.h) and seccomp return values (linux/seccomp.h).
const LOAD_WORD = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JUMP_EQUAL = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JUMP_AT_LEAST = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RETURN = 0x06; // BPF_RET | BPF_K
const ALLOW = 0x7fff0000;
const DENY_EPERM = 0x00050000 | 1;
const KILL_PROCESS = 0x80000000;

// Offsets into struct seccomp_data: the syscall number, the audit arch, the first argument's low word
// (both architectures are little-endian, and `domain` is an int).
const SYSCALL_NR = 0;
const ARCH = 4;
const FIRST_ARGUMENT = 16;
const AF_UNIX = 1;
// x32 calls run on x86_64 with this bit set in the number; they would get around a check of `nr`.
const X32_SYSCALL_BIT = 0x40000000;

/** The file descriptor bubblewrap reads the filter from: the first after stdin, stdout and stderr. */
export const SECCOMP_FD = 3;

/** The CPUs the filter has a program for, by Node's `process.arch`. */
export const FILTER_ARCHES = {
  x64: { audit: 0xc000003e, socket: 41, denyX32: true },
  arm64: { audit: 0xc00000b7, socket: 198, denyX32: false },
} as const;

type Instruction = readonly [code: number, jumpTrue: number, jumpFalse: number, value: number];

/**
 * The filter for one CPU as bytes of `struct sock_filter`, ready for bubblewrap's `--seccomp FD`; null
 * for a CPU it has no program for (the sandbox then refuses to run commands). A call from another ABI
 * (i386 or arm32 on a 64-bit kernel, x32) kills the process: its numbers mean other calls.
 */
export function unixSocketFilter(arch: string): Buffer | null {
  const target = Object.hasOwn(FILTER_ARCHES, arch) ? FILTER_ARCHES[arch as keyof typeof FILTER_ARCHES] : null;
  if (target === null) return null;
  // Jumps are relative: `skip` instructions after the next one. The three returns close the program.
  const body: Instruction[] = [[LOAD_WORD, 0, 0, ARCH]];
  const checks: Instruction[] = [[LOAD_WORD, 0, 0, SYSCALL_NR]];
  if (target.denyX32) checks.push([JUMP_AT_LEAST, -1, 0, X32_SYSCALL_BIT]);
  checks.push([JUMP_EQUAL, 0, -3, target.socket], [LOAD_WORD, 0, 0, FIRST_ARGUMENT], [JUMP_EQUAL, -2, -3, AF_UNIX]);
  const program: Instruction[] = [...body, [JUMP_EQUAL, 0, -1, target.audit], ...checks];
  // Negative jumps name a return: -3 allow, -2 deny, -1 kill; resolve them against the tail.
  const allowAt = program.length;
  const targets: Record<number, number> = { [-3]: allowAt, [-2]: allowAt + 1, [-1]: allowAt + 2 };
  const resolved = program.map(([code, jumpTrue, jumpFalse, value], index): Instruction => {
    const jump = (to: number): number => (to < 0 ? (targets[to] as number) - index - 1 : to);
    return [code, jump(jumpTrue), jump(jumpFalse), value];
  });
  resolved.push([RETURN, 0, 0, ALLOW], [RETURN, 0, 0, DENY_EPERM], [RETURN, 0, 0, KILL_PROCESS]);
  const bytes = Buffer.alloc(resolved.length * 8);
  for (const [index, [code, jumpTrue, jumpFalse, value]] of resolved.entries()) {
    bytes.writeUInt16LE(code, index * 8);
    bytes.writeUInt8(jumpTrue, index * 8 + 2);
    bytes.writeUInt8(jumpFalse, index * 8 + 3);
    bytes.writeUInt32LE(value >>> 0, index * 8 + 4);
  }
  return bytes;
}
