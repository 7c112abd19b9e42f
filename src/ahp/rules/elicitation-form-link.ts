import { defineEventRule } from '../../core/engine.ts';
import { childPointer } from '../../core/pointer.ts';
import { isObj, type Obj } from '../../core/value.ts';
import { checksOf, parsedObject } from '../elicitation-body.ts';
import type { AhpMessage } from '../message.ts';

// an absolute web link a client could render as clickable; a bare host name is left alone
const LINK = /\bhttps?:\/\/[^\s<>"'`]/i;

/** The display texts of one form field (its title, description, option titles), with their inner pointers. */
function* fieldTexts(field: Obj, at: string): Generator<[string, unknown]> {
  yield [`${at}/title`, field.title];
  yield [`${at}/description`, field.description];
  const options = Array.isArray(field.oneOf) ? field.oneOf : isObj(field.items) ? field.items.anyOf : undefined;
  const key = Array.isArray(field.oneOf) ? 'oneOf' : 'items/anyOf';
  if (Array.isArray(options))
    for (let i = 0; i < options.length; i++) {
      const o: unknown = options[i];
      if (isObj(o)) yield [`${at}/${key}/${i}/title`, o.title];
    }
  if (Array.isArray(field.enumNames))
    for (let i = 0; i < field.enumNames.length; i++) yield [`${at}/enumNames/${i}`, field.enumNames[i]];
}

/** `ahp/elicitation-form-link`: values (`default`, option `const`) are answers, not display text, so not read. */
export const elicitationFormLink = defineEventRule({
  id: 'ahp/elicitation-form-link',
  severity: 'warning',
  description:
    'A form elicitation shows no link: an `http(s)://` URL in its `message` or in a field title, description or option title is a warning.',
  detail:
    'The SHOULD NOT is about URLs meant to be clicked; in the text a form shows the user a link is one, and the URL mode exists for navigation. Values are not read: a `default` or option `const` is an answer (a URL field may default to one), not text to click.',
  spec: 'MCP 2025-11-25 elicitation §Safe URL Handling',
  quote: 'SHOULD NOT include URLs intended to be clickable in any field of a form mode elicitation request.',
  messages: {
    link: 'The text at {innerPointer} of the serialized MCP form request holds an http(s) link; a form request should not include URLs meant to be clicked, navigation belongs to URL mode (MCP §Safe URL Handling).',
  },
  types: ['user.elicitation.request'],
  check(msg: AhpMessage, ctx) {
    const c = checksOf(msg.elicitation);
    if (c?.checks.kind !== 'request') return;
    const value = parsedObject(c.checks);
    if (!value || (value.mode !== undefined && value.mode !== 'form')) return;
    const texts: [string, unknown][] = [['/message', value.message]];
    const schema = value.requestedSchema;
    if (isObj(schema) && isObj(schema.properties))
      for (const [name, field] of Object.entries(schema.properties))
        if (isObj(field)) texts.push(...fieldTexts(field, childPointer('/requestedSchema/properties', name)));
    for (const [innerPointer, text] of texts)
      if (typeof text === 'string' && LINK.test(text))
        ctx.report({ pointer: c.checks.textPointer, args: { partPointer: c.partPointer, innerPointer } });
  },
});
