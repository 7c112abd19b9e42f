/**
 * The rows of the AHP per-message rules (the message-schema stage and the per-event rules, one value at a time):
 * one test file per rule or rule family in this folder. A file names the rules its rows cover,
 * `const { valid, invalid } = ruleRows(['ahp/new-rule'])`, and gets a last test that fails unless its rows emitted
 * each of them; catalogue.test.ts checks that the files together cover every per-message rule. A new rule adds its
 * own file here (docs/architecture.md §How to add a rule).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AHP_MESSAGE_RULES, type AhpRuleId } from '../../src/ahp/rules/index.ts';
import type { Finding } from '../../src/core/finding.ts';
import { validateAhpMessage, type ValidateAhpOptions } from '../../src/run/ahp-message.ts';
import { runStdio, show } from '../ahp/helpers.ts';
import { event, observe } from '../ahp/builders.ts';

/** The per-message rules: stdio framing plus these, as one message at a time sees them (no stream rules). */
const PER_MESSAGE = new Set<string>(AHP_MESSAGE_RULES.map((r) => r.id));

/** A rule a file's rows cover: an AHP rule, or a framing rule of the stdio reader (`jsonl/…`, `json/…`). */
export type CoveredRule = AhpRuleId | `jsonl/${string}` | `json/${string}`;

/** The assertions of one file's rows; each records the rules it saw reported. */
export interface RuleRows {
  /** Every finding of `value` (the per-message rules). */
  validate(value: unknown, opts?: ValidateAhpOptions): Finding[];
  /** `value` has no error. */
  valid(value: unknown, opts?: ValidateAhpOptions): void;
  /**
   * `value` is invalid, every error has one of `rules`, each of `rules` occurs, and (when given) some finding
   * points at `pointer`; the findings.
   */
  invalid(value: unknown, rules: AhpRuleId | AhpRuleId[], pointer?: string, opts?: ValidateAhpOptions): Finding[];
  /** The findings of `text` read as stdio JSONL through `ahp validate`'s pipeline (per-message rules only). */
  stdio(text: string): Promise<Finding[]>;
  /** The findings of `text` read as one HTTP body (a `.json` file) through the same pipeline. */
  body(text: string): Promise<Finding[]>;
}

/**
 * The assertions for a file whose rows cover `covers`; registers, after the file's own tests, the test that its rows
 * reported each rule of `covers`.
 */
export function ruleRows(covers: readonly CoveredRule[]): RuleRows {
  const emitted = new Set<string>();
  const validate = (value: unknown, opts?: ValidateAhpOptions): Finding[] => {
    const issues = validateAhpMessage(value, opts);
    for (const i of issues) emitted.add(i.ruleId);
    return issues;
  };
  // registered once the file's module has run, so it runs after the file's own tests; a microtask, not a later turn,
  // so that it is registered while the file's suite still takes tests when the file runs in a group (tools/test-run.mjs)
  queueMicrotask(() =>
    test(`these rows report every rule they cover (${covers.join(', ')})`, () => {
      assert.ok(covers.length > 0, 'a rule file covers at least one rule');
      assert.deepEqual(
        covers.filter((id) => !emitted.has(id)),
        [],
      );
    }),
  );
  return {
    validate,
    valid(value, opts) {
      const issues = validate(value, opts);
      assert.deepEqual(
        issues.filter((i) => i.severity === 'error'),
        [],
        show(issues),
      );
    },
    invalid(value, rules, pointer, opts) {
      const want: string[] = Array.isArray(rules) ? rules : [rules];
      const issues = validate(value, opts);
      const errors = issues.filter((i) => i.severity === 'error');
      assert.ok(errors.length > 0, 'expected at least one error');
      for (const r of want)
        assert.ok(
          errors.some((i) => i.ruleId === r),
          `expected ${r}: ${show(issues)}`,
        );
      for (const e of errors) assert.ok(want.includes(e.ruleId), `unexpected ${e.ruleId}: ${show(issues)}`);
      if (pointer !== undefined)
        assert.ok(
          issues.some((i) => i.pointer === pointer),
          `expected an issue at ${pointer}: ${show(issues)}`,
        );
      return issues;
    },
    async stdio(text) {
      const findings = await runStdio(text, PER_MESSAGE);
      for (const f of findings) emitted.add(f.ruleId);
      return findings;
    },
    async body(text) {
      const findings = await runStdio(text, PER_MESSAGE, 'body.json');
      for (const f of findings) emitted.add(f.ruleId);
      return findings;
    },
  };
}

/** A `hooks/observe` notification of a minimal `type` event with `extra` members. */
export const obsOf = (type: string, extra: Record<string, unknown> = {}) => observe(event(type, extra));
