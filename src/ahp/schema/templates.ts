/**
 * The AHP schema stage's message templates (docs/architecture.md §Schema stage): the predicate phrases as sentences, a
 * fixed `x-message` sentence of schemas/ahp, the required member a `const` member asks for, and each one's `<id>Aep`
 * variant for a line that looks like an AEP event; shared by every AHP schema rule.
 */
import type { MessageTemplates } from '../../core/message.ts';
import { LITERAL_TEMPLATES, PHRASE_TEMPLATES, sentenceTemplates } from '../../core/schema/wording.ts';

const AEP_HINT = ' (This line looks like an AEP event: check it with `aep validate`.)';

const sentences: Record<string, string> = {
  ...sentenceTemplates({
    ...PHRASE_TEMPLATES,
    'required-const': '`{member}` is required here, as `{key}` is "{value}"',
    'required-effect': '`{member}` is required in a "{value}" effect',
  }),
  ...LITERAL_TEMPLATES,
};

/** The AHP schema templates, by message id. */
export const AHP_SCHEMA_TEMPLATES: MessageTemplates = {
  ...sentences,
  ...Object.fromEntries(Object.entries(sentences).map(([id, t]) => [`${id}Aep`, t + AEP_HINT])),
};
