/**
 * logs.proto types `time_unix_nano` fixed64, with 0 meaning "unknown or missing": an AEP time at or before the epoch,
 * or past 2^64 - 1 ns (2554-07-21T23:34:33.709551615Z), has no LogRecord time. Exporters that negate or wrap such a
 * time write another instant (replays of https://github.com/MainfluxLabs/mainflux/issues/1217, nanoseconds past int64
 * stored negative, and protocolbuffers/protobuf#2586, pre-epoch timestamps): `convert --to otlp` refuses the event,
 * and `--from otlp` reads nothing past the fixed64 range as a time.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_FIXED64, timeOfNanos, toOtlp } from '../../src/aep/bridges/otlp.ts';
import { decodeOtlp } from '../../src/aep/bridges/otlp-decode.ts';
import { runCli } from '../cli/helpers.ts';

const ev = (time: string) => ({
  aep: '0.1',
  id: 'e1',
  type: 'progress.status',
  time,
  source: 'aep://h/agent/a/session/s',
  agent: 'a',
  session: 's',
  seq: 0,
});

/** The one LogRecord of an export, or undefined when the event was refused. */
const recordOf = (time: string) => {
  const out = toOtlp([ev(time)]);
  const logs = out.request.resourceLogs as Array<{ scopeLogs: Array<{ logRecords: Array<Record<string, unknown>> }> }>;
  return { refused: out.refused, rec: logs[0]?.scopeLogs[0]?.logRecords[0] };
};

const timeIssues = (nanos: string) => {
  const rec = recordOf('2026-11-30T10:00:00Z').rec!;
  const req = { resourceLogs: [{ scopeLogs: [{ logRecords: [{ ...rec, timeUnixNano: nanos }] }] }] };
  return decodeOtlp(req).issues.filter((i) => i.ruleId === 'aep/otlp-time');
};

test('an AEP time whose epoch nanoseconds a fixed64 holds (and not 0) is exported exactly; any other is refused', () => {
  const cases: Array<[string, string | undefined]> = [
    ['1970-01-01T00:00:00.000000001Z', '1'],
    ['2026-11-30T09:00:00.123456789Z', '1796029200123456789'],
    ['2554-07-21T23:34:33.709551615Z', MAX_FIXED64.toString()],
    ['1970-01-01T00:00:00Z', undefined],
    ['1969-12-31T23:59:59.5Z', undefined],
    ['1960-01-01T00:00:00+01:00', undefined],
    ['2554-07-21T23:34:33.709551616Z', undefined],
    ['2600-01-01T00:00:00Z', undefined],
    ['9999-12-31T23:59:59Z', undefined],
  ];
  for (const [time, nanos] of cases) {
    const { refused, rec } = recordOf(time);
    if (nanos === undefined) {
      assert.equal(rec, undefined, time);
      assert.deepEqual(
        refused.map((r) => r.pointer),
        ['/time'],
        time,
      );
    } else {
      assert.deepEqual(refused, [], time);
      assert.equal(rec?.timeUnixNano, nanos, time);
    }
  }
});

test('relation: export and import agree on the range, around both of its ends', () => {
  for (const n of [1n, 2n, 999_999_999n, MAX_FIXED64 - 1n, MAX_FIXED64]) {
    const time = timeOfNanos(n);
    assert.equal(recordOf(time).rec?.timeUnixNano, n.toString(), time);
    assert.deepEqual(timeIssues(n.toString()), [], time);
  }
  for (const n of [MAX_FIXED64 + 1n, MAX_FIXED64 * 2n, 253402300799999999999n])
    assert.deepEqual(
      timeIssues(n.toString()).map((i) => i.messageId),
      ['too-late'],
      n.toString(),
    );
  // logs.proto: only 0 is unknown time; a negative count is no fixed64 at all
  assert.deepEqual(
    timeIssues('0').map((i) => i.messageId),
    ['zero'],
  );
  for (const n of ['-1', '-315619200000000000'])
    assert.deepEqual(
      timeIssues(n).map((i) => i.messageId),
      ['negative'],
      n,
    );
});

test('aep convert --to otlp names the refused time and writes no record for it', async () => {
  const input = `${JSON.stringify(ev('1969-07-20T20:17:40Z'))}\n${JSON.stringify({ ...ev('2026-11-30T10:00:00Z'), id: 'e2', seq: 1 })}\n`;
  const r = await runCli('aep', ['convert', '--to', 'otlp', '-'], input);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /<stdin>:1: not converted to otlp: \/time is a time at or before 1970-01-01T00:00:00Z/);
  assert.equal((r.stdout.match(/"timeUnixNano"/g) ?? []).length, 1, r.stdout);
});
