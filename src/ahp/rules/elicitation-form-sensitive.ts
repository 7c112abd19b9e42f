import { defineEventRule } from '../../core/engine.ts';
import { childPointer } from '../../core/pointer.ts';
import { isObj, type Obj } from '../../core/value.ts';
import { checksOf, parsedObject } from '../elicitation-body.ts';
import type { AhpMessage } from '../message.ts';
import { credentialAsked } from '../sensitive-names.ts';

/** The user types the value (free string or number), rather than choosing a server value or a boolean. */
function typedField(field: Obj): boolean {
  if (field.type === 'number' || field.type === 'integer') return true;
  return field.type === 'string' && !('enum' in field) && !('oneOf' in field);
}

/** `ahp/elicitation-form-sensitive`: the name heuristic of src/ahp/sensitive-names.ts, hence a warning. */
export const elicitationFormSensitive = defineEventRule({
  id: 'ahp/elicitation-form-sensitive',
  severity: 'warning',
  description:
    'A form elicitation never asks for sensitive information: a form field (free string or number) whose property name or title asks for a password, passphrase, secret, API or private key, access token, credential, one-time code or payment-card data is a warning (sensitive information uses URL mode). A name heuristic, hence a warning: names and titles are split into words (camelCase, snake_case, kebab-case, digits); whole words only, so `secretary`, `passport`, `max_tokens`, `tokens_used` and `token_count` do not match; boolean and enum fields are not checked (the user types nothing secret into them).',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding ("Sensitive information MUST use URL mode, never a form"); MCP 2025-11-25 elicitation §Form Mode Security',
  messages: {
    name: 'The form field at {innerPointer} of the serialized MCP request asks, by its name, for {asked}; sensitive information must use URL mode, never a form (form answers pass through the client and its logs).',
    title:
      'The form field at {innerPointer} of the serialized MCP request asks, by its title, for {asked}; sensitive information must use URL mode, never a form (form answers pass through the client and its logs).',
  },
  types: ['user.elicitation.request'],
  check(msg: AhpMessage, ctx) {
    const c = checksOf(msg.elicitation);
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
      ctx.report({
        pointer: c.checks.textPointer,
        messageId: byName ? 'name' : 'title',
        args: { asked, partPointer: c.partPointer, innerPointer: childPointer('/requestedSchema/properties', name) },
      });
    }
  },
});
