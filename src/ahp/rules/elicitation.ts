/**
 * Per-event rules of the MCP elicitation binding (AHP interaction-payloads.md §MCP elicitation
 * binding (2025-11-25)). They read the body the message-schema stage parsed once
 * (`AhpMessage.elicitation`, see src/ahp/elicitation-body.ts) and run only when its binding
 * checks apply (the event's `elicitation` payload passed schema validation).
 *
 * Findings about the embedded JSON point at the part's `text` member and carry
 * `data.embedded: {partPointer, innerPointer}` with a pointer into the parsed value.
 */
import { defineEventRule } from '../../core/engine.ts';
import type { ReportInput } from '../../core/rule.ts';
import type { ElicitationChecks } from '../elicitation-body.ts';
import type { AhpMessage } from '../message.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const SPEC = 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)';

/** The binding checks of `msg`'s elicitation body with its part pointer, when they apply. */
function checksOf(msg: AhpMessage): { checks: ElicitationChecks; partPointer: string } | undefined {
  const b = msg.elicitation;
  if (!b || (b.status !== 'parsed' && b.status !== 'invalid') || !b.checks) return undefined;
  return { checks: b.checks, partPointer: b.partPointer };
}

function embedded(partPointer: string, innerPointer: string): ReportInput['data'] {
  return { embedded: { partPointer, innerPointer } };
}

const what = (c: ElicitationChecks) => (c.kind === 'request' ? 'MCP elicitation/create params' : 'MCP ElicitResult');

/** The body text is complete MCP JSON without duplicate keys in the pinned subset. */
export const elicitationBody = defineEventRule<AhpMessage, 'ahp/elicitation-body'>({
  id: 'ahp/elicitation-body',
  severity: 'error',
  description: 'A body-selected elicitation request/result text is complete MCP JSON without duplicate keys that satisfies the pinned 2025-11-25 subset.',
  spec: SPEC,
  check(msg, ctx) {
    const c = checksOf(msg);
    if (!c) return;
    const { checks, partPointer } = c;
    const { parsed, textPointer } = checks;
    if (!parsed.ok) {
      const where = parsed.kind === 'invalid-json' ? `a JSON syntax error at character ${parsed.index + 1}` : `nesting deeper than ${parsed.depth - 1} levels`;
      ctx.report({ pointer: textPointer, message: `The body text of the elicitation ${checks.kind} must be the complete serialized ${what(checks)}, but it has ${where}.`, data: embedded(partPointer, '') });
      return;
    }
    // one finding per distinct sentence (a member name repeated thrice is one finding)
    const seen = new Set<string>();
    const once = (message: string, inner: string) => {
      if (seen.has(message)) return;
      seen.add(message);
      ctx.report({ pointer: textPointer, message, data: embedded(partPointer, inner) });
    };
    for (const d of parsed.duplicates) once(`The serialized ${what(checks)} repeats the member name at ${d.pointer}; duplicate member names are rejected.`, d.pointer);
    for (const [inner, msg] of checks.problems) once(`In ${inner === '' ? `the serialized ${what(checks)}` : `${inner} of the serialized ${what(checks)}`}: ${msg}.`, inner);
  },
});

/** The parsed MCP value of a checked body, when an object. */
function parsedObject(checks: ElicitationChecks): Obj | undefined {
  return checks.parsed.ok && isObj(checks.parsed.value) ? checks.parsed.value : undefined;
}

/** The envelope mode equals the parsed request mode (absent means form). */
export const elicitationModeMismatch = defineEventRule<AhpMessage, 'ahp/elicitation-mode-mismatch'>({
  id: 'ahp/elicitation-mode-mismatch',
  severity: 'error',
  description: 'The envelope elicitation mode equals the mode of the parsed MCP request (absent means form).',
  spec: SPEC,
  check(msg, ctx) {
    const c = checksOf(msg);
    if (!c || c.checks.kind !== 'request') return;
    const value = parsedObject(c.checks);
    if (!value) return;
    const el = c.checks.envelope;
    const parsedMode = value.mode === undefined ? 'form' : value.mode;
    if ((parsedMode === 'form' || parsedMode === 'url') && typeof el.mode === 'string' && el.mode !== parsedMode) {
      const how = value.mode === undefined ? 'has no `mode` (which means form)' : `has mode "${parsedMode}"`;
      ctx.report({
        pointer: `${msg.eventPointer}/elicitation/mode`,
        message: `The envelope mode is "${el.mode}" but the serialized MCP request ${how}; the AHP mode must equal the parsed mode.`,
        data: embedded(c.partPointer, value.mode === undefined ? '' : '/mode'),
      });
    }
  },
});

/** The envelope action equals the parsed result action. */
export const elicitationActionMismatch = defineEventRule<AhpMessage, 'ahp/elicitation-action-mismatch'>({
  id: 'ahp/elicitation-action-mismatch',
  severity: 'error',
  description: 'The envelope elicitation action equals the action of the parsed MCP result.',
  spec: SPEC,
  check(msg, ctx) {
    const c = checksOf(msg);
    if (!c || c.checks.kind !== 'result') return;
    const value = parsedObject(c.checks);
    if (!value) return;
    const el = c.checks.envelope;
    if (typeof value.action === 'string' && ['accept', 'decline', 'cancel'].includes(value.action) && typeof el.action === 'string' && el.action !== value.action) {
      ctx.report({
        pointer: `${msg.eventPointer}/elicitation/action`,
        message: `The envelope action is "${el.action}" but the serialized MCP result has action "${value.action}"; they must be equal.`,
        data: embedded(c.partPointer, '/action'),
      });
    }
  },
});

/** Result content only for an accepted form result. */
export const elicitationContent = defineEventRule<AhpMessage, 'ahp/elicitation-content'>({
  id: 'ahp/elicitation-content',
  severity: 'error',
  description: 'MCP result content appears only for an accepted form result.',
  spec: SPEC,
  check(msg, ctx) {
    const c = checksOf(msg);
    if (!c || c.checks.kind !== 'result') return;
    const value = parsedObject(c.checks);
    if (!value || !('content' in value)) return;
    const el = c.checks.envelope;
    if (!(el.action === 'accept' && el.mode === 'form')) {
      ctx.report({
        pointer: c.checks.textPointer,
        message: `The serialized MCP result carries \`content\`, which is only allowed for an accepted form result (envelope mode "${String(el.mode)}", action "${String(el.action)}").`,
        data: embedded(c.partPointer, '/content'),
      });
    }
  },
});

/** The elicitation binding rules, in reporting order. */
export const ELICITATION_RULES = [elicitationBody, elicitationModeMismatch, elicitationActionMismatch, elicitationContent] as const;
