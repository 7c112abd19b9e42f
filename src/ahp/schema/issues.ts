/** AHP's wording of schema errors for the schema stage's mapper: sentences that never echo values. */
import type { ErrorObject } from '../../core/schema/ajv.ts';
import { mapSchemaErrors, type SchemaFinding, type Wording } from '../../core/schema/findings.ts';
import { phrase, sentence } from '../../core/schema/wording.ts';
import type { MessageContext } from '../../core/schema/findings.ts';
import { isObj } from '../../core/value.ts';
import { ahpSchemas } from './schemas.ts';

/** A missing member with the object's own `const` member that requires it, else {@link phrase}. */
function requiredPhrase(c: MessageContext): string {
  const props = (c.error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  const v = c.value;
  if (isObj(props) && isObj(v))
    for (const [k, s] of Object.entries(props)) {
      const want = isObj(s) ? s.const : undefined;
      if (typeof want !== 'string' || v[k] !== want || want.length > 64) continue;
      const member = String((c.error.params as { missingProperty?: unknown }).missingProperty);
      if (/\/effects\/\d+$/.test(c.path) && k === 'type') return `\`${member}\` is required in a "${want}" effect`;
      return `\`${member}\` is required here, as \`${k}\` is "${want}"`;
    }
  return phrase(c);
}

/** AHP's wording: predicate phrases; `required` points at the object, an extra member at itself. */
export const AHP_WORDING: Wording = {
  generic: (c) => (c.keyword === 'required' ? requiredPhrase(c) : phrase(c)),
  keys: {},
  requiredPointer: 'object',
  additionalPointer: 'member',
  finish: sentence,
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
