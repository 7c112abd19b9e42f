// Invariant tests, defined once for each protocol (aep.test.ts, ahp.test.ts). The relations that make a verdict trustworthy, over every conformance case of ours and the
// upstream corpora in ../shared (issue 23): the same bytes give the same findings however they
// arrive (a path, gzip bytes, a gzip file, text, a chunked stream as stdin is, the same with no
// read-back spool, and event by event through createSession); reversing the member order of every object changes no
// finding; no value put in place of any member makes a rule throw or ends a run early; the
// fixture runner and `--each` / `--no-each` give what `validate` gives.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { isUtf8 } from 'node:buffer';
import { checkEvent, createSession, validate, type Finding } from '../../src/index.ts';
import type { Input } from '../../src/api/inputs.ts';
import { checkBytes } from '../../src/fixture-runner/check.ts';
import { PROTOCOLS } from '../../src/run/protocols.ts';
import { bridgeOfCaseName, profileOfCaseName } from '../../src/core/case-names.ts';
import type { Protocol } from '../../src/core/protocol.ts';
import { sweep, TEST_SCALE } from '../scale.ts';
import { optionalShared, SHARED, sharedPath } from '../shared.ts';
import { fileTempDir } from '../temp.ts';
import { jsonlBelow } from '../case-files.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TMP = fileTempDir('ac-invariants-');

const CASES: Record<Protocol, { ours: string[]; upstream: string[] }> = {
  aep: {
    ours: jsonlBelow(join(ROOT, 'conformance/aep')),
    upstream: jsonlBelow(sharedPath(SHARED.aepCorpus)),
  },
  ahp: {
    ours: jsonlBelow(join(ROOT, 'conformance/ahp')),
    upstream: jsonlBelow(sharedPath(SHARED.ahpCorpus)),
  },
};

/** What a finding is, wherever its input came from: rule, severity, line, pointer and citation. */
const key = (f: Finding) => `${f.ruleId}|${f.severity}|${f.line ?? '-'}|${f.pointer ?? '-'}|${f.spec}`;
const keys = (fs: readonly Finding[]) => fs.map(key).sort();
/** {@link keys} without the pointer of an id reuse, which needs the earlier line read back to name the member. */
const digestKeys = (fs: readonly Finding[]) =>
  fs.map((f) => (f.ruleId === 'ahp/event-id-reuse' ? key({ ...f, pointer: undefined }) : key(f))).sort();

/** The options a case runs with by its name (AEP bridge cases are read `--from`, `*.aep-0007.jsonl` `--profile`). */
function caseOpts(protocol: Protocol, file: string): CaseOpts {
  const from = protocol === 'aep' ? bridgeOfCaseName(file) : undefined;
  const profile = protocol === 'aep' ? profileOfCaseName(file) : undefined;
  return { ...(from ? { from } : {}), ...(profile ? { profile } : {}) };
}

/** What {@link caseOpts} gives. */
type CaseOpts = { from?: 'cloudevents' | 'otlp' | 'ocsf'; profile?: 'aep-0007' };

async function findingsOf(protocol: Protocol, input: Input, options: CaseOpts = {}): Promise<Finding[]> {
  return (await validate(protocol, input, options)).findings;
}

/** The bytes in chunks of 7, as a pipe delivers them (no `path`, so no line can be read back). */
function chunked(bytes: Buffer): Readable {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 7) parts.push(bytes.subarray(i, i + 7));
  return Readable.from(parts);
}

/** True when a case is plain LF-terminated UTF-8 lines with no framing finding: a session can replay it event by event. */
function replayable(text: string, findings: readonly Finding[]): boolean {
  return (
    text.endsWith('\n') &&
    !text.includes('\r') &&
    !text.includes('\n\n') &&
    !text.startsWith('\n') &&
    !findings.some((f) => f.ruleId.startsWith('jsonl/'))
  );
}

/** Define the invariant tests of `protocol` (one test file each, so the two run side by side). */
export function defineInvariants(protocol: Protocol): void {
  const files = [...CASES[protocol].ours, ...CASES[protocol].upstream];

  describe(`${protocol}: one verdict for the same bytes`, () => {
    test('path = gzip bytes = gzip file = text = chunked stream (with and without a spool) = createSession', async (t) => {
      optionalShared(t, protocol === 'aep' ? SHARED.aepCorpus : SHARED.ahpCorpus);
      // every case is read as a path, gzip bytes and text; the dearer forms take this scale's sweep (test/scale.ts)
      const swept = new Set(sweep(t, files));
      let sessions = 0;
      for (const file of files) {
        const bytes = readFileSync(file);
        const source = 'case.jsonl';
        const o = caseOpts(protocol, file);
        const all = await findingsOf(protocol, { path: file, source }, o);
        const want = keys(all);
        const gz = join(TMP, `${protocol}-${relative(ROOT, file).replace(/[\\/]/g, '_')}.gz`);
        writeFileSync(gz, gzipSync(bytes));
        const name = relative(ROOT, file);
        // a case that is itself gzip (a corrupt one) or not UTF-8 has no text or gzip twin
        const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
        if (!gzipped) {
          assert.deepEqual(
            keys(await findingsOf(protocol, { bytes: gzipSync(bytes), source }, o)),
            want,
            `${name}: gzip bytes`,
          );
          if (swept.has(file))
            assert.deepEqual(keys(await findingsOf(protocol, { path: gz, source }, o)), want, `${name}: gzip file`);
        }
        if (isUtf8(bytes))
          assert.deepEqual(
            keys(await findingsOf(protocol, { text: bytes.toString('utf8'), source }, o)),
            want,
            `${name}: text`,
          );
        // the gzip cases (a cut stream, bytes after the last member) are few and small: every one takes the pipe route,
        // where a member's end and what follows fall in other chunks than on a file
        if (!swept.has(file) && !gzipped) continue;
        assert.deepEqual(
          keys(await findingsOf(protocol, { stream: chunked(bytes), source }, o)),
          want,
          `${name}: chunked stream`,
        );
        // where no read-back spool can be made (src/core/read-spool.ts), analyzers keep digests: the same verdicts (an
        // id reuse then points at the id, not at the member that differs: README §Decisions on AHP decisions)
        process.env.AGENT_CONFORMANCE_SPOOL_DIR = 'off';
        try {
          assert.deepEqual(
            digestKeys(await findingsOf(protocol, { stream: chunked(bytes), source }, o)),
            digestKeys(all),
            `${name}: chunked stream without a spool`,
          );
        } finally {
          delete process.env.AGENT_CONFORMANCE_SPOOL_DIR;
        }
        const text = bytes.toString('utf8');
        if (!isUtf8(bytes) || !replayable(text, all) || bytes.includes(0xef)) continue;
        const session = createSession(protocol, { source, ...o });
        const got: Finding[] = [];
        for (const line of text.slice(0, -1).split('\n')) got.push(...session.check(line));
        got.push(...session.end());
        assert.deepEqual(keys(got), want, `${name}: createSession event by event`);
        sessions++;
      }
      assert.ok(
        files.length > 100 && sessions > (TEST_SCALE === 'full' ? 50 : 12),
        `only ${files.length} cases, ${sessions} replayed by a session`,
      );
    });

    test('a line past --max-line-bytes gives the same findings by path, gzip bytes, gzip file, text and chunked streams', async () => {
      // the gzip route passes a line past the cap on as it comes (src/core/gzip.ts) as the plain route does
      const cases = CASES[protocol].ours.filter((f) => f.endsWith('.jsonl')).slice(0, 6);
      assert.ok(cases.length > 0);
      for (const file of cases) {
        const lines = readFileSync(file, 'utf8').split('\n');
        const long = `{"pad":"${'x'.repeat(150_000)}"}`;
        const bytes = Buffer.from([lines[0], long, ...lines.slice(1)].join('\n'));
        const source = 'case.jsonl';
        const o = { ...caseOpts(protocol, file), maxLineBytes: 50_000 };
        const p = join(TMP, `${protocol}-long-${relative(ROOT, file).replace(/[\\/]/g, '_')}`);
        writeFileSync(p, bytes);
        writeFileSync(`${p}.gz`, gzipSync(bytes));
        const want = keys(await findingsOf(protocol, { path: p, source }, o));
        assert.ok(
          want.some((k) => k.includes('jsonl/line-too-long')),
          `${file}: ${want.join(' ')}`,
        );
        const name = relative(ROOT, file);
        assert.deepEqual(keys(await findingsOf(protocol, { path: `${p}.gz`, source }, o)), want, `${name}: gzip file`);
        const gz = gzipSync(bytes);
        assert.deepEqual(keys(await findingsOf(protocol, { bytes: gz, source }, o)), want, `${name}: gzip bytes`);
        assert.deepEqual(
          keys(await findingsOf(protocol, { text: bytes.toString('utf8'), source }, o)),
          want,
          `${name}: text`,
        );
        assert.deepEqual(
          keys(await findingsOf(protocol, { stream: chunked(bytes), source }, o)),
          want,
          `${name}: stream`,
        );
        assert.deepEqual(
          keys(await findingsOf(protocol, { stream: chunked(gz), source }, o)),
          want,
          `${name}: gzip stream`,
        );
      }
    });

    test('framing edges (a BOM, a CR, blank lines) give the same findings by file, stdin, text and createSession; checkEvent too', async (t) => {
      // each edge applied at the first line and at a later one of replayable cases; a session gets the lines one by one
      const EDGES: Record<string, (line: string) => string[]> = {
        bom: (l) => [`\uFEFF${l}`],
        cr: (l) => [`${l}\r`],
        blank: (l) => ['', l],
        spaces: (l) => ['  \t', l],
        'bom-blank': (l) => ['\uFEFF', l],
      };
      let compared = 0;
      for (const file of sweep(t, CASES[protocol].ours).slice(0, TEST_SCALE === 'full' ? undefined : 40)) {
        const bytes = readFileSync(file);
        const o = caseOpts(protocol, file);
        const all = await findingsOf(protocol, { bytes, source: 'case.jsonl' }, o);
        const text = bytes.toString('utf8');
        if (!isUtf8(bytes) || !replayable(text, all)) continue;
        const lines = text.slice(0, -1).split('\n');
        for (const [edge, apply] of Object.entries(EDGES))
          for (const at of new Set([0, lines.length - 1])) {
            const edged = lines.flatMap((l, i) => (i === at ? apply(l) : [l]));
            const bytesOf = Buffer.from(`${edged.join('\n')}\n`, 'utf8');
            const name = `${relative(ROOT, file)} ${edge} at line ${at + 1}`;
            const want = keys(await findingsOf(protocol, { bytes: bytesOf, source: 'case.jsonl' }, o));
            assert.deepEqual(
              keys(await findingsOf(protocol, { stream: chunked(bytesOf), source: 'case.jsonl' }, o)),
              want,
              `${name}: stdin`,
            );
            assert.deepEqual(
              keys(await findingsOf(protocol, { text: bytesOf.toString('utf8'), source: 'case.jsonl' }, o)),
              want,
              `${name}: text`,
            );
            const session = createSession(protocol, { source: 'case.jsonl', ...o });
            const got: Finding[] = [];
            for (const line of edged) got.push(...session.check(line));
            got.push(...session.end());
            assert.deepEqual(keys(got), want, `${name}: createSession`);
            compared++;
          }
        // one event alone: a BOM adds its finding and changes nothing else
        const first = lines[0]!;
        const plain = keys(checkEvent(protocol, first, o));
        const bom = keys(checkEvent(protocol, `\uFEFF${first}`, o));
        assert.deepEqual(
          bom.filter((k) => !k.startsWith('jsonl/bom|')),
          plain,
          `${relative(ROOT, file)}: checkEvent with a BOM`,
        );
        assert.equal(bom.length, plain.length + 1, `${relative(ROOT, file)}: one jsonl/bom`);
      }
      assert.ok(compared > 50, `only ${compared} compared`);
    });

    test('reversing the member order of every object changes no finding', async () => {
      const reverse = (v: unknown): unknown =>
        Array.isArray(v)
          ? v.map(reverse)
          : v !== null && typeof v === 'object'
            ? Object.fromEntries(
                Object.entries(v)
                  .reverse()
                  .map(([k, x]) => [k, reverse(x)]),
              )
            : v;
      // both sides are re-serialised, so what JSON.parse cannot keep (repeated names, integers
      // beyond 2^53) is lost on both; a line that does not parse stays as it is on both
      const rewrite = (text: string, f: (v: unknown) => unknown) =>
        text
          .split('\n')
          .map((l) => {
            try {
              return JSON.stringify(f(JSON.parse(l)));
            } catch {
              return l;
            }
          })
          .join('\n');
      const shape = (fs: readonly Finding[]) =>
        fs.map((f) => `${f.ruleId}|${f.severity}|${f.line ?? '-'}|${f.pointer ?? '-'}`).sort();
      let compared = 0;
      for (const file of files) {
        const text = readFileSync(file, 'utf8');
        const same = await findingsOf(
          protocol,
          { text: rewrite(text, (v) => v), source: 'case.jsonl' },
          caseOpts(protocol, file),
        );
        const reversed = await findingsOf(
          protocol,
          { text: rewrite(text, reverse), source: 'case.jsonl' },
          caseOpts(protocol, file),
        );
        assert.deepEqual(shape(reversed), shape(same), `${relative(ROOT, file)}: member order changed the findings`);
        compared++;
      }
      assert.ok(compared > 100);
    });

    test('type confusion at every member of every passing event: no rule throws, no run ends early', async (t) => {
      const VALUES: unknown[] = [null, [], {}, 0, '', true, -1.5e308];
      const pass = [
        ...CASES[protocol].ours.filter((f) => f.includes(`${join('conformance', protocol, 'pass')}`)),
        ...(protocol === 'aep' ? jsonlBelow(sharedPath(SHARED.aepCorpus, 'golden')) : []),
      ];
      let mutants = 0;
      // a member of one kind of event gets each value once over all cases: the cases share templates
      const tried = new Set<string>();
      for (const file of sweep(t, pass)) {
        const bytes = readFileSync(file);
        // a gzip or otherwise binary case has no text to mutate (read as text it is one jsonl/binary-input finding)
        if (!isUtf8(bytes)) continue;
        const lines = bytes
          .toString('utf8')
          .split('\n')
          .filter((l) => l.trim() !== '');
        // each event's mutants come just before it, so each sees the stream state of the events before it
        const out: string[] = [];
        for (const line of lines) {
          let value: unknown;
          try {
            value = JSON.parse(line);
          } catch {
            out.push(line);
            continue;
          }
          const v0 = value as { type?: unknown; method?: unknown; params?: { event?: { type?: unknown } } } | null;
          const kind = `${String(v0?.type)}|${String(v0?.method)}|${String(v0?.params?.event?.type)}`;
          const visit = (node: unknown, at: string) => {
            if (node === null || typeof node !== 'object') return;
            const entries: [string | number, unknown][] = Array.isArray(node)
              ? node.map((x, i) => [i, x])
              : Object.entries(node);
            for (const [k, child] of entries) {
              const pointer = `${at}/${k}`;
              if (!tried.has(`${kind}${pointer}`)) {
                tried.add(`${kind}${pointer}`);
                for (const v of VALUES) {
                  (node as Record<string | number, unknown>)[k] = v;
                  out.push(JSON.stringify(value));
                  (node as Record<string | number, unknown>)[k] = child;
                  mutants++;
                }
              }
              visit(child, pointer);
            }
          };
          visit(value, '');
          out.push(line);
        }
        const text = out.join('\n') + '\n';
        const run = await validate(protocol, { text, source: 'mutants.jsonl' }, caseOpts(protocol, file));
        const crashes = run.findings.filter((f) => f.ruleId === 'internal/rule-error');
        assert.deepEqual(
          crashes.map((f) => `line ${f.line}: ${f.message}`),
          [],
          `${relative(ROOT, file)}: a rule threw`,
        );
        assert.equal(run.summary.lines, out.length, `${relative(ROOT, file)}: the run ended early`);
      }
      assert.ok(mutants > (TEST_SCALE === 'full' ? 1000 : 250), `only ${mutants} mutants`);
    });

    test('the fixture runner, --each and --no-each give what validate gives', async () => {
      const def = PROTOCOLS[protocol];
      const target = { def, options: {} };
      const ours = CASES[protocol].ours;
      for (const file of ours) {
        const bytes = readFileSync(file);
        const want = keys(await findingsOf(protocol, { bytes, source: file }, caseOpts(protocol, file)));
        const fixture = await checkBytes(
          target,
          file,
          bytes,
          { strict: false, failOn: 'error' },
          { flags: { ...def.caseOptions?.(file) } },
        );
        assert.deepEqual(keys(fixture.findings), want, `${relative(ROOT, file)}: fixture runner`);
      }
      // README §Streams: --each checks every input alone; --no-each (and the JSONL default) one stream
      for (let i = 0; i + 1 < ours.length; i += 17) {
        const [a, b] = [ours[i]!, ours[i + 1]!];
        const alone = [...(await findingsOf(protocol, { path: a })), ...(await findingsOf(protocol, { path: b }))];
        const each = (await validate(protocol, [{ path: a }, { path: b }], { each: true })).findings;
        assert.deepEqual(keys(each), keys(alone), `${relative(ROOT, a)} + ${relative(ROOT, b)}: --each`);
        const together = (await validate(protocol, [{ path: a }, { path: b }], { each: false })).findings;
        const byDefault = (await validate(protocol, [{ path: a }, { path: b }])).findings;
        assert.deepEqual(
          keys(byDefault),
          keys(together),
          `${relative(ROOT, a)} + ${relative(ROOT, b)}: JSONL inputs are one stream by default`,
        );
      }
    });
  });
}
