import { defineEventRule } from '../../core/engine.ts';
import { isObj } from '../../core/value.ts';
import type { AhpMessage } from '../message.ts';

/** A snapshot's content identity: inline text, SHA-256 or immutable body reference; `undefined` when not comparable. */
function snapshotContent(part: unknown): string | undefined {
  if (!isObj(part) || 'gap' in part) return undefined;
  if (typeof part.text === 'string') return `t${part.text}`;
  if (typeof part.sha256 === 'string') return `h${part.sha256}`;
  if (isObj(part.body) && typeof part.body.ref === 'string') return `r${part.body.ref}`;
  return undefined;
}

const SAME = { t: 'text', h: 'sha256', r: 'reference' } as const;

/** `ahp/file-change-noop`: a `file.changed` update whose snapshots show identical content. */
export const fileChangeNoop = defineEventRule({
  id: 'ahp/file-change-noop',
  severity: 'warning',
  description:
    'A file.changed `update` whose `before` and `after` snapshots show the same content (the same inline text, the same sha256, or the same immutable attachment reference) reports no content change. A warning, not an error: an update may change only what the snapshots do not show (permissions, timestamps), and the spec states no MUST; snapshots that do not show content (views without sha256, gaps) are not compared ("Missing snapshots do not imply empty files").',
  spec: 'AHP task-workspace-lineage.md §Payloads (file.changed before/after snapshots); §Lineage and actual changes',
  messages: {
    text: "This file update's `before` and `after` snapshots show identical content (the same inline text); a file.changed update reports a change, so either the snapshots are stale or nothing but unshown metadata changed.",
    sha256:
      "This file update's `before` and `after` snapshots show identical content (the same sha256); a file.changed update reports a change, so either the snapshots are stale or nothing but unshown metadata changed.",
    reference:
      "This file update's `before` and `after` snapshots show identical content (the same attachment reference); a file.changed update reports a change, so either the snapshots are stale or nothing but unshown metadata changed.",
  },
  types: ['file.changed'],
  check(msg: AhpMessage, ctx) {
    const ev = msg.event;
    if (msg.eventPointer === undefined || !ev || ev.type !== 'file.changed' || !Array.isArray(ev.changes)) return;
    for (let i = 0; i < ev.changes.length; i++) {
      const c: unknown = ev.changes[i];
      if (!isObj(c) || c.operation !== 'update') continue;
      const before = snapshotContent(c.before);
      if (before === undefined || before !== snapshotContent(c.after)) continue;
      ctx.report({
        pointer: `${msg.eventPointer}/changes/${i}/after`,
        messageId: SAME[before[0] as keyof typeof SAME],
      });
    }
  },
});
