/**
 * The stream state a run retains, measured: `node --expose-gc --import tsx tools/bench/state-probe.ts aep|ahp FILE`
 * runs the file through the same path as `validate` (src/run/run.ts, a regular file: lines are read back, not kept)
 * and, at the first chunk past each quarter of the file, collects garbage and reads the JS heap in use plus the
 * typed-array tables (`heapUsed + arrayBuffers`). A first pass counts what the state is about, so the growth from the
 * first quarter to the end is also given per event, per id, per session and per request (each figure charges all of
 * the growth to that one kind: an upper bound). Prints one JSON line.
 * AEP: ids are `(source, id)` pairs, sessions `(source, session)`, requests `attention.requested` events.
 * AHP: ids are `(source, event id)` pairs, sessions `params.event.session.id`, requests JSON-RPC requests.
 */
import { openSync, readSync, closeSync, statSync } from 'node:fs';
import { FILE_CHUNK_BYTES, readFileChunks } from '../../src/core/file-chunks.ts';
import { protocolDefinition } from '../../src/run/protocols.ts';
import { runInputs } from '../../src/run/run.ts';

type Counts = { events: number; ids: number; sessions: number; requests: number };

const str = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** Cumulative counts at each byte offset in `at` (ascending): of the lines that end at or before it. */
function countAt(protocol: 'aep' | 'ahp', file: string, at: readonly number[]): Counts[] {
  const ids = new Set<string>();
  const sessions = new Set<string>();
  const c: Counts = { events: 0, ids: 0, sessions: 0, requests: 0 };
  const out: Counts[] = [];
  const fd = openSync(file, 'r');
  const buf = Buffer.allocUnsafe(FILE_CHUNK_BYTES);
  let carry = '';
  let offset = 0;
  let next = 0;
  const line = (text: string, end: number): void => {
    while (next < at.length && end > at[next]!) out[next++] = { ...c };
    let v: Record<string, unknown>;
    try {
      v = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    c.events++;
    if (protocol === 'aep') {
      ids.add(`${str(v.source)}\u0000${str(v.id)}`);
      if (v.session !== undefined) sessions.add(`${str(v.source)}\u0000${str(v.session)}`);
      if (v.type === 'attention.requested') c.requests++;
    } else {
      const event = (v.params as Record<string, unknown> | undefined)?.event as Record<string, unknown> | undefined;
      if (event) {
        ids.add(`${str(event.source)}\u0000${str(event.id)}`);
        const s = (event.session as Record<string, unknown> | undefined)?.id;
        if (s !== undefined) sessions.add(str(s));
      }
      if (typeof v.method === 'string' && v.id !== undefined) c.requests++;
    }
    c.ids = ids.size;
    c.sessions = sessions.size;
  };
  try {
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) {
      const text = carry + buf.toString('latin1', 0, n);
      let start = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
        const end = offset - Buffer.byteLength(carry, 'latin1') + nl + 1;
        line(Buffer.from(text.slice(start, nl), 'latin1').toString('utf8'), end);
        start = nl + 1;
      }
      offset += n;
      carry = text.slice(start);
    }
  } finally {
    closeSync(fd);
  }
  while (next < at.length) out[next++] = { ...c };
  return out;
}

async function main(): Promise<void> {
  const [protocol, file] = process.argv.slice(2) as ['aep' | 'ahp', string];
  if ((protocol !== 'aep' && protocol !== 'ahp') || !file) throw new Error('usage: state-probe.ts aep|ahp FILE');
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  const size = statSync(file).size;
  // progress comes after each whole chunk: measure at the first chunk end at or past each quarter
  const at = [1, 2, 3, 4].map((q) => Math.min(size, Math.ceil((size * q) / 4 / FILE_CHUNK_BYTES) * FILE_CHUNK_BYTES));
  const counts = countAt(protocol, file, at);
  gc();
  const retained: number[] = [];
  const measure = (): void => {
    gc();
    const m = process.memoryUsage();
    retained.push(m.heapUsed + m.arrayBuffers);
  };
  measure();
  const base = retained.pop()!;
  let next = 0;
  await runInputs(
    protocolDefinition(protocol),
    [{ source: file, size, path: file, open: () => readFileChunks(file) }],
    {},
    {
      progress: (bytes) => {
        while (next < at.length && bytes >= at[next]!) {
          measure();
          next++;
        }
      },
    },
  );
  const mb = (b: number) => Math.round((b / 1048576) * 10) / 10;
  const first = counts[0]!;
  const last = counts[3]!;
  const growth = retained[3]! - retained[0]!;
  const per = (k: keyof Counts) => (last[k] > first[k] ? Math.round(growth / (last[k] - first[k])) : null);
  const points = counts.map((c, i) => ({ ...c, retainedMB: mb(retained[i]! - base) }));
  console.log(
    JSON.stringify({
      protocol,
      points,
      growthMB: mb(growth),
      bytesPer: { event: per('events'), id: per('ids'), session: per('sessions'), request: per('requests') },
    }),
  );
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(2);
});
