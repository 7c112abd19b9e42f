/** AHP's wording of schema errors for the schema stage's mapper: sentences that never echo values. */
import type { ErrorObject } from '../../core/schema/ajv.ts';
import { mapSchemaErrors, type SchemaFinding, type Wording } from '../../core/schema/findings.ts';
import { phrase, sentence } from '../../core/schema/wording.ts';
import { ahpSchemas } from './schemas.ts';

/** AHP's wording: predicate phrases; `required` points at the object, an extra member at itself. */
export const AHP_WORDING: Wording = {
  generic: phrase,
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
