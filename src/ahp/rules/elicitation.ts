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
import { childPointer } from '../../core/pointer.ts';
import { credentialAsked, urlSecrets } from '../sensitive-names.ts';

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
  description:
    "A body-selected elicitation request/result text is complete MCP JSON without duplicate keys that satisfies the pinned 2025-11-25 subset. A repeated member whose copies differ leaves the value undetermined: only the repeat is reported (saying the copies differ) and no rule reads the body, so findings never depend on member order. A number the pinned schema.ts types `number` (a field's minimum, maximum, lengths and item counts, a number default, an answer value) is one a double holds: schema.ts, the source of truth for MCP types, means an IEEE 754 double, and RFC 8259 §6 lets an implementation limit the range it accepts, so a literal beyond it (1e400, read as Infinity) makes the body invalid, for a bound and an answer alike (never a bound silently ignored); inside `_meta`, free-form JSON, such a literal is accepted.",
  spec: SPEC,
  check(msg, ctx) {
    const c = checksOf(msg);
    if (!c) return;
    const { checks, partPointer } = c;
    const { parsed, textPointer } = checks;
    if (!parsed.ok) {
      const where =
        parsed.kind === 'invalid-json'
          ? `a JSON syntax error at character ${parsed.index + 1}`
          : `nesting deeper than ${parsed.depth - 1} levels (the --max-depth limit)`;
      ctx.report({
        pointer: textPointer,
        message: `The body text of the elicitation ${checks.kind} must be the complete serialized ${what(checks)}, but it has ${where}.`,
        data: embedded(partPointer, ''),
      });
      return;
    }
    // one finding per distinct sentence (a member name repeated thrice is one finding)
    const seen = new Set<string>();
    const once = (message: string, inner: string) => {
      if (seen.has(message)) return;
      seen.add(message);
      ctx.report({ pointer: textPointer, message, data: embedded(partPointer, inner) });
    };
    const differ = new Set(checks.differingCopies);
    for (const d of parsed.duplicates) {
      once(
        differ.has(d.pointer)
          ? `The serialized ${what(checks)} repeats the member name at ${d.pointer} with differing values; which copy counts is undefined, so duplicate member names are rejected and the body is not checked further.`
          : `The serialized ${what(checks)} repeats the member name at ${d.pointer} (the copies are equal); duplicate member names are rejected.`,
        d.pointer,
      );
    }
    // a differing repeat beyond the listed ones still decides that nothing else is checked
    if (differ.size && !parsed.duplicates.some((d) => differ.has(d.pointer)))
      once(
        `The serialized ${what(checks)} repeats member names with differing values; which copy counts is undefined, so the body is not checked further.`,
        '',
      );
    for (const [inner, msg] of checks.problems)
      once(
        `In ${inner === '' ? `the serialized ${what(checks)}` : `${inner} of the serialized ${what(checks)}`}: ${msg}.`,
        inner,
      );
  },
});

/** The parsed MCP value of a checked body, when an object whose value does not depend on member order (no differing repeated member). */
function parsedObject(checks: ElicitationChecks): Obj | undefined {
  return checks.parsed.ok && checks.differingCopies.length === 0 && isObj(checks.parsed.value)
    ? checks.parsed.value
    : undefined;
}

/** The envelope mode equals the parsed request mode (absent means form). */
export const elicitationModeMismatch = defineEventRule<AhpMessage, 'ahp/elicitation-mode-mismatch'>({
  id: 'ahp/elicitation-mode-mismatch',
  severity: 'error',
  description: 'The envelope elicitation mode equals the mode of the parsed MCP request (absent means form).',
  spec: SPEC,
  check(msg, ctx) {
    const c = checksOf(msg);
    if (c?.checks.kind !== 'request') return;
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
    if (c?.checks.kind !== 'result') return;
    const value = parsedObject(c.checks);
    if (!value) return;
    const el = c.checks.envelope;
    if (
      typeof value.action === 'string' &&
      ['accept', 'decline', 'cancel'].includes(value.action) &&
      typeof el.action === 'string' &&
      el.action !== value.action
    ) {
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
    if (c?.checks.kind !== 'result') return;
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

/** Whether a form field schema lets the user type a value (free string or number), as opposed to choosing one of the server's values or a boolean. */
function typedField(field: Obj): boolean {
  if (field.type === 'number' || field.type === 'integer') return true;
  return field.type === 'string' && !('enum' in field) && !('oneOf' in field);
}

/**
 * A form request whose field asks for a credential or payment-card data (by its name or title;
 * heuristic of src/ahp/sensitive-names.ts). interaction-payloads.md: "Sensitive information MUST
 * use URL mode, never a form"; MCP 2025-11-25 elicitation §Form Mode Security: servers MUST NOT
 * request passwords, API keys, etc. via form mode.
 */
export const elicitationFormSensitive = defineEventRule<AhpMessage, 'ahp/elicitation-form-sensitive'>({
  id: 'ahp/elicitation-form-sensitive',
  severity: 'warning',
  description:
    'A form elicitation never asks for sensitive information: a form field (free string or number) whose property name or title asks for a password, passphrase, secret, API or private key, access token, credential, one-time code or payment-card data is a warning (sensitive information uses URL mode). A name heuristic, hence a warning: names and titles are split into words (camelCase, snake_case, kebab-case, digits); whole words only, so `secretary`, `passport`, `max_tokens`, `tokens_used` and `token_count` do not match; boolean and enum fields are not checked (the user types nothing secret into them).',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding ("Sensitive information MUST use URL mode, never a form"); MCP 2025-11-25 elicitation §Form Mode Security',
  check(msg, ctx) {
    const c = checksOf(msg);
    if (c?.checks.kind !== 'request') return;
    const value = parsedObject(c.checks);
    if (
      !value ||
      (value.mode !== undefined && value.mode !== 'form') ||
      !isObj(value.requestedSchema) ||
      !isObj(value.requestedSchema.properties)
    )
      return;
    for (const [name, field] of Object.entries(value.requestedSchema.properties)) {
      if (!isObj(field) || !typedField(field)) continue;
      const byName = credentialAsked(name);
      const byTitle =
        byName === undefined && typeof field.title === 'string' ? credentialAsked(field.title) : undefined;
      const asked = byName ?? byTitle;
      if (!asked) continue;
      const inner = childPointer('/requestedSchema/properties', name);
      ctx.report({
        pointer: c.checks.textPointer,
        message: `The form field at ${inner} of the serialized MCP request asks, by its ${byName ? 'name' : 'title'}, for ${asked}; sensitive information must use URL mode, never a form (form answers pass through the client and its logs).`,
        data: embedded(c.partPointer, inner),
      });
    }
  },
});

/**
 * A URL request whose `url` carries userinfo or a credential-named query (or fragment)
 * parameter. interaction-payloads.md: "authorize URL navigation and preserve requester identity
 * without exposing secrets in logs"; MCP 2025-11-25 elicitation §Safe URL Handling: the URL MUST
 * NOT include credentials and MUST NOT be pre-authenticated.
 */
export const elicitationUrlSecret = defineEventRule<AhpMessage, 'ahp/elicitation-url-secret'>({
  id: 'ahp/elicitation-url-secret',
  severity: 'warning',
  description:
    "A URL elicitation's `url` carries no secret: userinfo (`user:password@`) or a query or fragment parameter whose name asks for a credential (the form heuristic of ahp/elicitation-form-sensitive, plus `key`, `sig` and `signature` of keyed or signed URLs) is a warning, since the URL is shown, logged and must not be pre-authenticated. A name heuristic, hence a warning; parameter values are never read or printed.",
  spec: 'AHP interaction-payloads.md §MCP elicitation binding ("without exposing secrets in logs"); MCP 2025-11-25 elicitation §Safe URL Handling',
  check(msg, ctx) {
    const c = checksOf(msg);
    if (c?.checks.kind !== 'request') return;
    const value = parsedObject(c.checks);
    if (value?.mode !== 'url' || typeof value.url !== 'string') return;
    let u: URL;
    try {
      u = new URL(value.url);
    } catch {
      return; // not a URL: ahp/elicitation-body says so
    }
    for (const what of urlSecrets(u))
      ctx.report({
        pointer: c.checks.textPointer,
        message: `The \`url\` of the serialized MCP request carries ${what}; a URL elicitation must not expose secrets in logs or be pre-authenticated (MCP §Safe URL Handling).`,
        data: embedded(c.partPointer, '/url'),
      });
  },
});

/** The elicitation binding rules, in reporting order. */
export const ELICITATION_RULES = [
  elicitationBody,
  elicitationModeMismatch,
  elicitationActionMismatch,
  elicitationContent,
  elicitationFormSensitive,
  elicitationUrlSecret,
] as const;
