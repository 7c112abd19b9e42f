/**
 * The AHP schema stage's message templates (docs/architecture.md §Schema stage): the predicate phrases as sentences, a
 * fixed `x-message` sentence of schemas/ahp, the required member a `const` member asks for, and each one's `<id>Aep`
 * variant for a line that looks like an AEP event, shared by every AHP schema rule; and the MCP body's, which
 * `ahp/elicitation-body` shares.
 */
import type { MessageTemplates } from '../../core/message.ts';
import { LITERAL_TEMPLATES, PHRASE_TEMPLATES, sentenceTemplates } from '../../core/schema/wording.ts';

const AEP_HINT = ' (This line looks like an AEP event: check it with `aep validate`.)';

const sentences: Record<string, string> = {
  ...sentenceTemplates({
    ...PHRASE_TEMPLATES,
    'required-const': '`{member}` is required here, as `{key}` is "{value}"',
    'required-effect': '`{member}` is required in a "{value}" effect',
    'selection-category': 'the content selection of `{category}` must be "body", "metadata" or "omit"',
    'selection-value':
      'a content selection value (`default` and each category key) must be "body", "metadata" or "omit"',
  }),
  ...LITERAL_TEMPLATES,
};

/** The AHP schema templates, by message id. */
export const AHP_SCHEMA_TEMPLATES: MessageTemplates = {
  ...sentences,
  ...Object.fromEntries(Object.entries(sentences).map(([id, t]) => [`${id}Aep`, t + AEP_HINT])),
};

/** The phrases of errors inside an embedded MCP value (never echoing values), by message id. */
export const MCP_TEMPLATES: MessageTemplates = {
  required: '`{member}` is required',
  additionalProperties: '`{member}` is not part of the pinned MCP 2025-11-25 subset (this object is closed)',
  type: PHRASE_TEMPLATES.type!,
  const: PHRASE_TEMPLATES.const!,
  enum: PHRASE_TEMPLATES.enum!,
  'format-uri': 'must be a URI with a scheme (RFC 3986)',
  'web-url':
    'must be a valid URL: an http or https URL has "//" and a host after the scheme and a port of at most 65535',
  format: 'must be a valid {format}',
  shapes: 'matches none of the allowed MCP shapes',
  ajv: '{ajv}',
  ...LITERAL_TEMPLATES,
};

/** `ahp/elicitation-body`'s sentences of an MCP schema error: `schema.<id>` inside the body, `schemaRoot.<id>` at it. */
export const MCP_BODY_TEMPLATES: MessageTemplates = Object.fromEntries(
  Object.entries(MCP_TEMPLATES).flatMap(([id, t]) => [
    [`schema.${id}`, `In {innerPointer} of the serialized MCP {body}: ${t}.`],
    [`schemaRoot.${id}`, `In the serialized MCP {body}: ${t}.`],
  ]),
);
