/**
 * Per-event rules of the task, workspace and file change payloads (AHP task-workspace-lineage.md
 * §Payloads, §Lineage and actual changes): what one event can show about itself. The shape (a
 * task update with an empty `change`) is the schema's (`ahp/overlay`); the pairing of an after
 * event with its before is `ahp/change-after-mismatch` in src/ahp/stream/. Values are compared
 * as JSON values (canonical JSON, exact big integers), never printed.
 */
import { canonicalJson } from '../../core/canonical.ts';
import { defineEventRule } from '../../core/engine.ts';
import { childPointer } from '../../core/pointer.ts';
import type { AhpMessage } from '../message.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether every member of `change` is in `prior` with the same JSON value (`change` non-empty). */
function sameAsPrior(msg: AhpMessage, change: Obj, prior: Obj, pointer: string): boolean {
  const keys = Object.keys(change);
  if (keys.length === 0) return false;
  const eq = (k: string) =>
    canonicalJson({ value: change[k], bigIntegers: msg.bigIntegers }, childPointer(`${pointer}/change`, k)) ===
    canonicalJson({ value: prior[k], bigIntegers: msg.bigIntegers }, childPointer(`${pointer}/prior`, k));
  return keys.every((k) => Object.hasOwn(prior, k) && eq(k));
}

/**
 * A task or workspace after event that changes nothing: every changed field repeats its known
 * prior value (for a task, an `update`).
 */
export const changeAfterNoop = defineEventRule<AhpMessage, 'ahp/change-after-noop'>({
  id: 'ahp/change-after-noop',
  severity: 'error',
  description:
    'A task.change.after (update) or workspace.change.after reports an actual change: when every field of its `change` equals the same field of its `prior`, it is an explicit no-op and no after event represents it. Fields absent from `prior` are unknown, not unchanged; create and remove operations are not compared.',
  spec: 'AHP task-workspace-lineage.md §Lineage and actual changes ("A denied proposal with no actual change produces no after event"; the lineage check rejects "explicit no-op actual task/workspace updates"); §Payloads',
  check(msg, ctx) {
    const ev = msg.event;
    if (msg.eventPointer === undefined || !ev) return;
    const member =
      ev.type === 'task.change.after' ? 'task' : ev.type === 'workspace.change.after' ? 'workspace' : undefined;
    if (!member) return;
    const o = ev[member];
    if (!isObj(o) || !isObj(o.change) || !isObj(o.prior)) return;
    if (member === 'task' && o.operation !== 'update') return;
    const pointer = `${msg.eventPointer}/${member}`;
    if (!sameAsPrior(msg, o.change, o.prior, pointer)) return;
    ctx.report({
      pointer: `${pointer}/change`,
      message: `This ${String(ev.type)} changes nothing: every field of \`${member}.change\` equals the same field of \`${member}.prior\`; an after event reports an actual change, and no after event represents an unchanged proposal.`,
    });
  },
});

/**
 * What identifies a snapshot's content, when it shows it: its inline text, its SHA-256, or its
 * immutable body reference (changed attachment bytes need a new reference). `undefined`: not
 * comparable (a view without digest, a gap).
 */
function snapshotContent(part: unknown): string | undefined {
  if (!isObj(part) || 'gap' in part) return undefined;
  if (typeof part.text === 'string') return 't' + part.text;
  if (typeof part.sha256 === 'string') return 'h' + part.sha256;
  if (isObj(part.body) && typeof part.body.ref === 'string') return 'r' + part.body.ref;
  return undefined;
}

/** A `file.changed` update whose before and after snapshots show identical content. */
export const fileChangeNoop = defineEventRule<AhpMessage, 'ahp/file-change-noop'>({
  id: 'ahp/file-change-noop',
  severity: 'warning',
  description:
    'A file.changed `update` whose `before` and `after` snapshots show the same content (the same inline text, the same sha256, or the same immutable attachment reference) reports no content change. A warning, not an error: an update may change only what the snapshots do not show (permissions, timestamps), and the spec states no MUST; snapshots that do not show content (views without sha256, gaps) are not compared ("Missing snapshots do not imply empty files").',
  spec: 'AHP task-workspace-lineage.md §Payloads (file.changed before/after snapshots); §Lineage and actual changes',
  check(msg, ctx) {
    const ev = msg.event;
    if (msg.eventPointer === undefined || !ev || ev.type !== 'file.changed' || !Array.isArray(ev.changes)) return;
    ev.changes.forEach((c, i) => {
      if (!isObj(c) || c.operation !== 'update') return;
      const before = snapshotContent(c.before);
      if (before === undefined || before !== snapshotContent(c.after)) return;
      const how =
        before[0] === 't'
          ? 'the same inline text'
          : before[0] === 'h'
            ? 'the same sha256'
            : 'the same attachment reference';
      ctx.report({
        pointer: `${msg.eventPointer}/changes/${i}/after`,
        message: `This file update's \`before\` and \`after\` snapshots show identical content (${how}); a file.changed update reports a change, so either the snapshots are stale or nothing but unshown metadata changed.`,
      });
    });
  },
});
