// Finding.ruleId is our rule ids' union plus any string (src/generated/rule-ids.ts `RuleId`): editors complete ours
// and another tool's finding still type-checks (formatReport reports any id). The
// `@ts-expect-error` lines and the `Equal` checks are assertions `tsc -p tsconfig.json` makes (as rule-types.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  AEP_RULE_IDS,
  AHP_RULE_IDS,
  createSession,
  formatReport,
  LIVE_RULE_IDS,
  LIVE_RULES,
  type AepRuleId,
  type AhpRuleId,
  type Finding,
  type KnownRuleId,
  type LiveRuleId,
  type RuleId,
  type Summary,
} from '../../src/index.ts';
import type { LiveRuleId as HandLiveRuleId } from '../../src/live/rule-types.ts';

/** `true` exactly when `A` and `B` are the same type (not merely mutually assignable through `any`). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const holds = <T extends true>(): T | undefined => undefined;

holds<Equal<Finding['ruleId'], RuleId>>();
holds<Equal<KnownRuleId, AepRuleId | AhpRuleId | LiveRuleId>>();
holds<Equal<LiveRuleId, HandLiveRuleId>>();
// the union did not collapse to `string` (with a plain `| string` it would, and completion would be lost)
holds<Equal<Equal<RuleId, string>, false>>();
// each catalogue's ids are KnownRuleIds; a misspelt one is not
const ours: KnownRuleId[] = ['aep/time-format', 'ahp/jsonrpc', 'aep/live-fanout', 'jsonl/invalid-json'];
// @ts-expect-error: no rule of ours is called that
const misspelt: KnownRuleId = 'aep/time-fromat';
// a foreign id is still a Finding's
const foreign: Finding = {
  ruleId: 'acme/no-todo',
  severity: 'warning',
  message: 'A TODO.',
  spec: 'ACME §1',
  source: 'x',
};

test('the generated id lists are the catalogues, live rules included', () => {
  assert.deepEqual(
    [...LIVE_RULE_IDS],
    LIVE_RULES.map((r) => r.id),
  );
  const all = new Set<string>([...AEP_RULE_IDS, ...AHP_RULE_IDS, ...LIVE_RULE_IDS]);
  for (const id of ours) assert.ok(all.has(id), id);
  assert.ok(!all.has(misspelt));
});

test("formatReport reports a finding of another tool's rule id", () => {
  const summary: Summary = createSession('aep').summary();
  const sarif = JSON.parse(formatReport([foreign], summary, { protocol: 'aep', format: 'sarif' }));
  assert.equal(sarif.runs[0].results[0].ruleId, 'acme/no-todo');
});
