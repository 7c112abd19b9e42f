/**
 * Walks the upstream AHP draft fixture manifest  and compares our verdicts
 * with `expectedValid` (against the case's `schema`), `aggregateExpectedValid` (the wire root)
 * and `eventExpectedValid` (`params.event` against `eventSchema`, defaulting to
 * `expectedValid`). `contextualExpectedValid` is the host edit-context verdict and belongs to
 * another suite. Absent case files are skipped and counted, never passed. Every deliberate
 * disagreement is listed in conformance/ahp/deviations.json; a listed deviation that no
 * longer occurs fails the suite, as does any unlisted disagreement.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseJsonText } from '../../src/core/json.ts';
import { isAhpValid, validateAhpMessage } from '../../src/run/ahp-message.ts';
import { beyondAggregateRoot } from '../../src/fixture-runner/ahp-manifest.ts';
import type { Finding } from '../../src/core/finding.ts';
import { AHP_CORPUS_DIR, REPO_DIR, runStdio, show } from './helpers.ts';
import { needShared, SHARED } from '../shared.ts';

/** A finding as far as a verdict needs it (the checks' findings, or a parse problem of the case file). */
type Issue = Pick<Finding, 'ruleId' | 'severity' | 'pointer' | 'message' | 'messageId'>;
const NO_RULES = new Set<string>();

interface ManifestCase {
  id: string;
  path: string;
  binding: 'stdio-jsonl' | 'http-json' | 'registration-json';
  schema: string;
  sha256: string;
  expectedValid: boolean;
  aggregateExpectedValid?: boolean;
  eventSchema?: string;
  eventExpectedValid?: boolean;
}

/** A deliberate disagreement: `id` is `<case id>#<verdict field>`, e.g. `http.x.invalid#aggregateExpectedValid`. */
interface Deviation {
  id: string;
  reason: string;
}

/**
 * Parse a case file the way the upstream verdict procedure does (one JSON object, no duplicate
 * keys; a stdio case is one LF-terminated line, framed by `ahp validate`'s pipeline) and check
 * it against `root`.
 */
async function parseCase(c: ManifestCase, text: string, root: string, eventSchema?: string): Promise<Issue[]> {
  const issues: Issue[] = [];
  if (c.binding === 'stdio-jsonl') {
    // framing only (an empty rule selection): CR, invalid JSON, not an object, duplicate keys
    issues.push(...(await runStdio(text, NO_RULES)));
    // a process-per-event stdio fixture is exactly one physical line (AHP-STDIO-001)
    if (text.split('\n').length !== 2)
      issues.push({ ruleId: 'test/not-one-line', severity: 'error', pointer: '', message: 'not exactly one line' });
    if (issues.some((i) => i.severity === 'error')) return issues;
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) return [{ ruleId: 'test/not-json', severity: 'error', pointer: '', message: 'not JSON' }];
  issues.push(
    ...parsed.duplicates.map(
      (d): Issue => ({ ruleId: 'json/duplicate-key', severity: 'error', pointer: d.pointer, message: 'duplicate key' }),
    ),
  );
  return [...issues, ...validateAhpMessage(parsed.value, { root, eventSchema })];
}

test('upstream AHP draft fixture manifest: our verdicts equal the expected ones', async (t) => {
  const manifestPath = AHP_CORPUS_DIR + 'manifest.json';
  if (!needShared(t, `${SHARED.ahpCorpus}/manifest.json`)) return;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { protocolVersion: string; cases: ManifestCase[] };
  assert.equal(manifest.protocolVersion, 'draft');
  const deviations = JSON.parse(readFileSync(REPO_DIR + 'conformance/ahp/deviations.json', 'utf8')) as Deviation[];
  const listed = new Map(deviations.map((d) => [d.id, d]));
  for (const d of deviations) assert.ok(d.reason && d.reason.length > 10, `deviation ${d.id} needs a reason`);

  let agree = 0;
  let skipped = 0;
  const disagreements: string[] = [];
  const seenDeviations = new Set<string>();
  const ids = new Set<string>();
  for (const c of manifest.cases) {
    assert.ok(!ids.has(c.id), `duplicate case id ${c.id}`);
    ids.add(c.id);
    assert.ok(c.path.startsWith('fixtures/draft/'), `${c.id}: path outside the snapshot`);
    const file = AHP_CORPUS_DIR + c.path.slice('fixtures/draft/'.length);
    if (!existsSync(file)) {
      skipped++;
      continue;
    }
    const bytes = readFileSync(file);
    assert.equal(
      createHash('sha256').update(bytes).digest('hex'),
      c.sha256,
      `${c.id}: file digest differs from the manifest`,
    );
    const text = bytes.toString('utf8');
    const verdicts: Array<[string, boolean, () => Issue[] | Promise<Issue[]>]> = [
      ['expectedValid', c.expectedValid, () => parseCase(c, text, c.schema)],
    ];
    if (c.binding !== 'registration-json') {
      assert.equal(typeof c.aggregateExpectedValid, 'boolean', `${c.id}: aggregateExpectedValid is required`);
      verdicts.push([
        'aggregateExpectedValid',
        c.aggregateExpectedValid!,
        async () => (await parseCase(c, text, 'message')).filter((f) => !beyondAggregateRoot(f)),
      ]);
    }
    if (c.eventSchema) {
      verdicts.push([
        'eventExpectedValid',
        c.eventExpectedValid ?? c.expectedValid,
        () => {
          const parsed = JSON.parse(text) as { params?: { event?: unknown } };
          return validateAhpMessage(parsed.params?.event, { root: c.eventSchema });
        },
      ]);
    }
    for (const [field, expected, run] of verdicts) {
      const issues = await run();
      const actual = isAhpValid(issues);
      const key = `${c.id}#${field}`;
      if (actual === expected) agree++;
      else if (listed.has(key)) seenDeviations.add(key);
      else {
        disagreements.push(`${key}: expected ${expected ? 'valid' : 'invalid'}, got ${show(issues)}`);
      }
    }
  }
  t.diagnostic(
    `manifest cases: ${manifest.cases.length}; verdicts agreeing: ${agree}; disagreeing (listed deviations): ${seenDeviations.size}; case files absent (skipped): ${skipped}`,
  );
  assert.deepEqual(disagreements, [], 'unlisted disagreements with the upstream manifest');
  const stale = deviations.filter((d) => !seenDeviations.has(d.id)).map((d) => d.id);
  assert.deepEqual(
    stale,
    [],
    'listed deviations that no longer occur (remove them from conformance/ahp/deviations.json)',
  );
  assert.ok(agree > 0, 'no case was checked');
});
