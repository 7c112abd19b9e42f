/** AEP-0009 assessment events: their types, and the payload members that are metadata tokens (§3, §4, §6). */
import { isObj } from '../core/value.ts';

/** The three assessment types (AEP-0009 §3, §4, §6). */
export const ASSESSMENT_TYPES = [
  'assessment.evaluation.recorded',
  'assessment.feedback.received',
  'assessment.guardrail.recorded',
] as const;

/** True for the three assessment types. */
export function isAssessment(type: string): boolean {
  return type.startsWith('assessment.') && (ASSESSMENT_TYPES as readonly string[]).includes(type);
}

/** A payload member name that reads as a separate target id (AEP-0009 §2): `target`, `target_id`, `runId` ... */
const TARGET_ID =
  /(target|response|run|session|event|output|trace|span|message|step|tool|observation|generation|completion|call|request|turn|answer|result|cause|subject)id$/;

// `target` followed by what names a reference (`target_event`, `targetRef`), not a property (`target_language`)
const TARGET_REF = /^target(event|ref|reference|uid|key|uri|response|run|message|output|call|span|trace)?$/;

/** True when the member name `name` reads as a target id (`target_event`, `targetRef` name the target too). */
export function isTargetIdName(name: string): boolean {
  const n = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return TARGET_REF.test(n) || TARGET_ID.test(n);
}

/** The payload members AEP-0009 §3, §4, §6 define: their values are never read as a target id. */
export const ASSESSMENT_MEMBERS: ReadonlySet<string> = new Set([
  'gen_ai.evaluation.name',
  'gen_ai.evaluation.score.value',
  'gen_ai.evaluation.score.label',
  'gen_ai.evaluation.explanation',
  'evaluator',
  'rating',
  'label',
  'comment',
  'correction',
  'source',
  'guardrail',
  'stage',
  'verdict',
  'categories',
  'detector',
  'explanation',
]);

/** The metadata tokens of an assessment payload (scores aside): [pointer, value] pairs of the strings present. */
export function metadataTokens(type: string, data: unknown): [string, string][] {
  const out: [string, string][] = [];
  if (!isObj(data)) return out;
  const add = (pointer: string, v: unknown) => {
    if (typeof v === 'string') out.push([pointer, v]);
  };
  if (type === 'assessment.evaluation.recorded') {
    add('/data/gen_ai.evaluation.name', data['gen_ai.evaluation.name']);
    add('/data/gen_ai.evaluation.score.label', data['gen_ai.evaluation.score.label']);
    add('/data/evaluator', data.evaluator);
  } else if (type === 'assessment.feedback.received') {
    add('/data/label', data.label);
    add('/data/source', data.source);
  } else if (isObj(data.guardrail)) {
    const g = data.guardrail;
    if (Array.isArray(g.categories))
      g.categories.forEach((c, i) => {
        add(`/data/guardrail/categories/${i}/name`, isObj(c) ? c.name : undefined);
      });
    if (isObj(g.detector)) {
      add('/data/guardrail/detector/name', g.detector.name);
      add('/data/guardrail/detector/version', g.detector.version);
    }
  }
  return out;
}
