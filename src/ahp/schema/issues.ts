/** AHP's wording of schema errors for the schema stage's mapper: templates that never echo values. */
import type { ErrorObject } from '../../core/schema/ajv.ts';
import {
  type MessageContext,
  mapSchemaErrors,
  type SchemaFinding,
  type SchemaMessage,
  type Wording,
} from '../../core/schema/findings.ts';
import { phraseMessage } from '../../core/schema/wording.ts';
import { isObj } from '../../core/value.ts';
import { ahpSchemas } from './schemas.ts';
import { AHP_SCHEMA_TEMPLATES } from './templates.ts';

/** A missing member with the object's own `const` member that requires it, else {@link phraseMessage}. */
function requiredMessage(c: MessageContext): SchemaMessage {
  const props = (c.error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  const v = c.value;
  if (isObj(props) && isObj(v))
    for (const [k, s] of Object.entries(props)) {
      const want = isObj(s) ? s.const : undefined;
      if (typeof want !== 'string' || v[k] !== want || want.length > 64) continue;
      const member = String((c.error.params as { missingProperty?: unknown }).missingProperty);
      // `want` is the schema's own constant (the value only equals it)
      if (/\/effects\/\d+$/.test(c.path) && k === 'type')
        return { messageId: 'required-effect', args: { keyword: c.keyword, member, value: want } };
      return { messageId: 'required-const', args: { keyword: c.keyword, member, key: k, value: want } };
    }
  return phraseMessage(c);
}

/** AHP's wording: predicate phrases as sentences; `required` points at the object, an extra member at itself. */
export const AHP_WORDING: Wording = {
  templates: AHP_SCHEMA_TEMPLATES,
  generic: (c) => (c.keyword === 'required' ? requiredMessage(c) : phraseMessage(c)),
  keys: {
    // a category key of a content selection map: named when it has a name's shape (never echoing other text)
    'selection-category': (c): SchemaMessage => {
      const token = c.path.slice(c.path.lastIndexOf('/') + 1);
      if (!/^[A-Za-z][A-Za-z0-9_.-]{0,39}$/.test(token))
        return { messageId: 'selection-value', args: { keyword: c.keyword } };
      return { messageId: 'selection-category', args: { keyword: c.keyword, category: token } };
    },
  },
  requiredPointer: 'object',
  additionalPointer: 'member',
  sentences: true,
};

/** Map diagnostic ajv errors to schema findings through the schema stage's mapper. */
export function mapAjvErrors(
  errors: readonly ErrorObject[] | null | undefined,
  instance: unknown,
  base = '',
): SchemaFinding[] {
  return mapSchemaErrors(errors, instance, {
    index: ahpSchemas().index,
    wording: AHP_WORDING,
    fallbackRule: 'ahp/wire-root',
    base,
  });
}
