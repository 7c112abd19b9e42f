/**
 * The AEP schema stage's message templates (docs/architecture.md §Schema stage): the located sentences, the sentences
 * of the `x-message` keys of schemas/aep, and a payload variant of each; the wording (wording.ts) picks one per error.
 */
import type { MessageTemplates } from '../../core/message.ts';
import { LITERAL_TEMPLATES, LOCATED_TEMPLATES } from '../../core/schema/wording.ts';

const JSONRPC_HINT = ' (This line looks like a JSON-RPC message, e.g. AHP: check it with `ahp validate`.)';
const STREAM_HINT =
  " The stream category is added by AEP-0007, a Draft: check with `--profile aep-0007` (library: `profile: 'aep-0007'`) to accept it.";
const TYPE_GRAMMAR =
  'Type {type:json} does not follow the type grammar {grammar} (13 core categories, lowercase [a-z0-9_] segments) or {vendorGrammar}.';

/** The sentences of AEP's `x-message` keys (schemas/aep), by message id. */
const KEY_TEMPLATES: MessageTemplates = {
  'required.jsonrpc': LOCATED_TEMPLATES.required + JSONRPC_HINT,
  'required.root.jsonrpc': LOCATED_TEMPLATES['required.root'] + JSONRPC_HINT,
  'null-attribute': 'Attribute "{attribute}" is null; an absent optional attribute is omitted, never null.',
  'type-grammar': TYPE_GRAMMAR,
  'type-grammar.stream': TYPE_GRAMMAR + STREAM_HINT,
  'time-format': '"{path}" has the RFC 3339 shape but names no real instant: {why}.',
  traceparent:
    '"{path}" is not a W3C Trace Context traceparent: version-trace-id-parent-id-flags in lowercase hex (2-32-16-2 digits), version not ff, trace-id and parent-id not all zeros.',
  'cost-currency':
    '"{path}" is not an ISO 4217 alphabetic currency code in force (e.g. "USD"; the codes Intl.supportedValuesOf("currency") lists).',
  'citation-offset.type':
    '"{path}" is not an object; a citation offset is an object that populates at most one of char, page and block.',
  'citation-offset':
    '"{path}" populates {count} offset variants ({variants}); a citation offset populates at most one of char, page and block.',
  'extension-name': 'Extension attribute name "{member}" is not 1-20 lowercase letters or digits ([a-z0-9]{1,20}).',
  'extension-value': 'Extension attribute "{attribute}" must be a string, integer or boolean.',
  'scope-agent':
    'Agent-scoped event "{type}" must not carry "{attribute}" (events of category agent, agent.* or x.VENDOR.agent.*, have no session, run, step or seq).',
  'scope-foreign.required': '"{type}" is addressed to a session and must carry "{attribute}".',
  'scope-foreign':
    '"{type}" must not carry "{attribute}": commands and attention.routed are not sequenced by their sender.',
  'scope-session': 'Session-scoped event "{type}" must carry "{attribute}".',
};

/** Message ids whose templates only the envelope uses (they name the event's type; no payload variant). */
const ENVELOPE_ONLY = /^(required\.root\.jsonrpc|required\.jsonrpc|null-attribute|type-grammar|extension-|scope-)/;

const sentences: Record<string, string> = { ...LOCATED_TEMPLATES, ...LITERAL_TEMPLATES, ...KEY_TEMPLATES };
const payloadVariants: Record<string, string> = {};
for (const [id, t] of Object.entries(sentences)) {
  if (ENVELOPE_ONLY.test(id) || id.endsWith('.root') || !t.endsWith('.')) continue;
  payloadVariants[`payload.${id}`] = `${t.slice(0, -1)} (payload of {type}).`;
}
// a fixed sentence ends where its text does: check.ts passes it without its full stop
payloadVariants['payload.x-message'] = '{text} (payload of {type}).';

/**
 * The AEP schema stage's templates, by message id: located sentences, the `x-message` keys', and each one's
 * `payload.<id>` variant naming the event type of a payload (`{type}`); shared by every AEP schema rule.
 */
export const AEP_SCHEMA_TEMPLATES: MessageTemplates = { ...sentences, ...payloadVariants };
