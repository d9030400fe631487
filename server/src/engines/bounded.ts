/**
 * A child process's real memory, bounded by the kernel: `prlimit` (util-linux) sets its limits before
 * it runs. Two kinds:
 * - `as` (RLIMIT_AS, the address space) for a plain native program such as tesseract;
 * - `data` (RLIMIT_DATA: the heap and private writable mappings, the memory a process really fills) for
 *   Node: V8 and WebAssembly reserve many GB of address space they never touch, so no address-space
 *   limit lets Node start (measured: `prlimit --as=4G node -e ''` dies), while a data limit leaves those
 *   reservations alone and still refuses the allocations that would grow it (canvas pixels included).
 * A process past its limit is refused memory and dies (by a signal, or "out of memory" on stderr).
 * Without prlimit the command runs unbounded (its time limit still holds): say so in the logs.
 */
import { spawnSync } from 'node:child_process'

let prlimitThere: boolean | null = null
export const hasPrlimit = (): boolean => (prlimitThere ??= spawnSync('prlimit', ['--version'], { timeout: 5000, stdio: 'ignore' }).status === 0)

/** The command and arguments that run `command args` with at most `bytes` of that kind of memory. */
export function withMemoryLimit (kind: 'as' | 'data', bytes: number, command: string, args: string[]): [string, string[]] {
  return hasPrlimit() ? ['prlimit', [`--${kind}=${Math.floor(bytes)}`, '--', command, ...args]] : [command, args]
}

/** Whether a child's end looks like its memory ran out (killed by a signal we did not send, or V8's words). */
export function ranOutOfMemory (code: number | null, signal: NodeJS.Signals | null, stderr: string): boolean {
  if (code === null && signal !== null && signal !== 'SIGKILL' && signal !== 'SIGTERM') return true
  return /out of memory|Allocation failed|std::bad_alloc|Cannot allocate memory/i.test(stderr)
}
