/**
 * How much of the heavy sweeps (property runs, corpus × mutation loops) one run does: `TEST_SCALE=full` does all of
 * it, and is the default under CI (`CI` set); elsewhere the default is `quick`, a quarter of the property runs and of
 * the swept cases: the cases are every 4th, from an offset that changes each run (`TEST_SEED`, default the day of the
 * year), so four quick runs cover what one full run does. A test reports what it left out with `t.diagnostic`.
 */
import type { TestContext } from 'node:test';

/** `full` or `quick` (see the module comment). */
export const TEST_SCALE: 'full' | 'quick' =
  (process.env.TEST_SCALE ?? (process.env.CI ? 'full' : 'quick')) === 'full' ? 'full' : 'quick';

/** The share a quick run does (one in QUICK_SHARE). */
const QUICK_SHARE = 4;

/** The slice a quick run takes, 0 .. QUICK_SHARE - 1. */
const OFFSET =
  Number(process.env.TEST_SEED ?? Math.floor((Date.now() - Date.UTC(new Date().getUTCFullYear(), 0, 1)) / 864e5)) %
  QUICK_SHARE;

/** The property runs for `full` runs at this scale (at least 10). */
export function runs(full: number): number {
  return TEST_SCALE === 'full' ? full : Math.max(10, Math.ceil(full / QUICK_SHARE));
}

/**
 * The cases a sweep checks at this scale: all of them, or every QUICK_SHARE-th from this run's offset (noted on `t`,
 * with the seed that repeats the slice).
 */
export function sweep<T>(t: TestContext, cases: readonly T[]): readonly T[] {
  if (TEST_SCALE === 'full') return cases;
  const picked = cases.filter((_, i) => i % QUICK_SHARE === OFFSET);
  t.diagnostic(
    `TEST_SCALE=quick: ${picked.length} of ${cases.length} cases (slice ${OFFSET} of ${QUICK_SHARE}, TEST_SEED=${OFFSET}); TEST_SCALE=full checks all`,
  );
  return picked;
}
