/**
 * The AHP issue model, and AHP's wording of schema errors for the schema stage's mapper
 * (src/core/schema/findings.ts): plain sentences that never echo instance values (they give
 * the JSON type and length instead), and exact RFC 6901 pointers.
 */
import type { ErrorObject } from '../core/schema/ajv.ts';
import { mapSchemaErrors, type Wording } from '../core/schema/findings.ts';
import { phrase, sentence } from '../core/schema/wording.ts';
import type { Severity } from '../core/finding.ts';
import { ahpRule } from './rules.ts';
import { ahpSchemas } from './schemas.ts';

/**
 * One problem found in an AHP message or registration document.
 * - `ruleId`: a stable `ahp/<name>` id listed in `AHP_MESSAGE_RULES`.
 * - `pointer`: RFC 6901 JSON Pointer into the validated value (`""` = the whole value). For a
 *   problem inside embedded MCP JSON it names the text member of the part (`…/request/text`).
 * - `message`: one plain sentence; never echoes a content value (type and length instead).
 * - `spec`: citation, e.g. `AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)`.
 * - `embedded`: for problems inside the MCP JSON serialized in a text part: the part's pointer and
 *   a pointer into the parsed embedded value.
 */
export interface AhpIssue {
  ruleId: string;
  severity: Severity;
  pointer: string;
  message: string;
  spec: string;
  embedded?: { partPointer: string; innerPointer: string };
}

/** Build an issue with the rule's default severity and citation. */
export function issue(ruleId: string, pointer: string, message: string, extra?: Pick<AhpIssue, 'embedded'>): AhpIssue {
  const r = ahpRule(ruleId);
  const out: AhpIssue = { ruleId, severity: r.severity, pointer, message, spec: r.spec };
  if (extra?.embedded) out.embedded = extra.embedded;
  return out;
}

/** How AHP words schema errors: predicate phrases as sentences; `required` points at the object, an extra member at itself. */
export const AHP_WORDING: Wording = {
  generic: phrase,
  keys: {},
  requiredPointer: 'object',
  additionalPointer: 'member',
  finish: sentence,
};

/**
 * Map ajv errors (from a validator of `ahpSchemas()`, `validator()` / `mcpValidator()`) to
 * issues through the schema stage's mapper; `base` is prefixed to every pointer. Errors at a
 * location without a rule are `ahp/wire-root`.
 */
export function mapAjvErrors(errors: readonly ErrorObject[] | null | undefined, instance: unknown, base = ''): AhpIssue[] {
  return mapSchemaErrors(errors, instance, { index: ahpSchemas().index, wording: AHP_WORDING, fallbackRule: 'ahp/wire-root', base }).map((f) => issue(f.ruleId, f.pointer, f.message));
}
