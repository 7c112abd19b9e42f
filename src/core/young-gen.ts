/**
 * A cap on V8's young generation for the CLI process. V8 doubles the semi-spaces (1 -> 16 MiB each on Node 20) while
 * objects survive scavenges; the last doublings add ~24 MiB of RSS and, for a stream checker whose objects mostly die
 * young, no speed (docs/benchmarks.md). Only `--semi-space-growth-factor` is read by V8 after start-up, so growth is
 * stopped once the new space reaches the cap.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The new space (both semi-spaces) at which growth stops: 8 MiB, semi-spaces of 4 MiB. */
export const NEW_SPACE_CAP_BYTES = 8 << 20;

/** What {@link capYoungGeneration} reads and sets; tests pass their own. */
export interface HeapHooks {
  newSpaceBytes(): number;
  stopGrowth(): void;
}

/** The hooks of this process's V8 heap. */
export const V8_HEAP_HOOKS: HeapHooks = {
  newSpaceBytes: () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0,
  stopGrowth: () => setFlagsFromString('--semi-space-growth-factor=1'),
};

/**
 * Poll the new space every `everyMs` (timers run between input chunks) and stop its growth once it is at least
 * `capBytes`; the poll ends then, and never keeps the process alive. Returns a function that stops polling.
 */
export function capYoungGeneration(
  capBytes = NEW_SPACE_CAP_BYTES,
  everyMs = 5,
  hooks: HeapHooks = V8_HEAP_HOOKS,
): () => void {
  const poll = (): boolean => {
    if (hooks.newSpaceBytes() < capBytes) return false;
    hooks.stopGrowth();
    return true;
  };
  if (poll()) return () => {};
  const timer = setInterval(() => {
    if (poll()) clearInterval(timer);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
