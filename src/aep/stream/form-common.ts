/**
 * Shared reporting for the AEP-0006 form-values rules (src/aep/stream/form-values-*.ts).
 *
 * Which request an answer is checked against (notes A-14, decided here):
 * - `attention.answered`: the `attention.requested` whose `id` = `subject` in the same
 *   `(source, session)`. The answered record is the emitter's statement about its own
 *   request, and bare-id references resolve within one emitter session's view (AEP-0001
 *   §7.4), so a same-id request of another emitter is never used.
 * - `control.attention.respond`: the request whose `id` = `subject` in the same `session`
 *   from any source. The command's `source` is the sender's, not the target's (AEP-0004 §2.2),
 *   so the emitter cannot be matched; commands are routed by bare `session` (AEP-0001 §5.2).
 *   When several emitters of that session raised a request with that id, the command cannot
 *   be linked and is reported as unverifiable rather than guessed.
 *
 * Severity: on `attention.answered` every structural problem is an error (the answered record
 * is the emitter's validated statement). On `control.attention.respond` the structural rules
 * (type, required, choice) report a warning: the protocol's answer to such a command is
 * `control.rejected{reason:"invalid"}` (AEP-0002 §5.3), and accepting it is
 * `aep/respond-invalid-accepted`. Capture gating is an error on both (capture honesty binds
 * every event, AEP-0001 §8.2).
 */
import type { Severity } from '../../core/finding.ts';
import type { RuleMeta } from '../../core/rule.ts';
import type { FormIssueKind } from '../forms.ts';
import { markLocation, trackedRule } from './tracker.ts';

/** Pointer of `answer.values` in both event types. */
export const VALUES_POINTER = '/data/answer/values';

/** The common citation of the form-values rules. */
export const FORM_SPEC = 'AEP-0006; AEP-0002 §5.3 attention.answered values; AEP-0004 §5';

/** A rule reporting every {@link FormIssueKind} `kind` issue of a checked `values`. */
export function formIssueRule(meta: RuleMeta, kind: FormIssueKind, respondSeverity?: Severity) {
  return trackedRule(meta, () => ({
    onEvent(obs, ctx) {
      const f = obs.form;
      if (f?.outcome.kind !== 'checked') return;
      const request = f.outcome.request;
      for (const issue of f.outcome.issues) {
        if (issue.kind !== kind) continue;
        ctx.report({
          pointer: VALUES_POINTER + issue.pointer,
          message: issue.message,
          severity: f.role === 'respond' ? respondSeverity : undefined,
          data: { field: issue.fieldId },
          related: [markLocation(request, issue.fieldIndex === undefined ? '/data/fields' : `/data/fields/${issue.fieldIndex}`)],
        });
      }
    },
  }));
}
