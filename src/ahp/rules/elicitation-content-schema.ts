/**
 * ahp/elicitation-content-schema (error): the `content` of an accepted form
 * `user.elicitation.result` satisfies the `requestedSchema` of the request it answers: every
 * `required` field is present (a `default` is an annotation, never injected), each value has its
 * field's type (`integer`: a whole number), single-select values are among `enum` / titled
 * `oneOf` consts, multi-select items among `items.enum` / `items.anyOf` consts, numbers within
 * `minimum` / `maximum`, strings within `minLength` / `maxLength` and of their `format` (email,
 * uri, date, date-time), selections within `minItems` / `maxItems` (src/ahp/form-answer.ts).
 * An accepted form result without `content` is judged as the empty answer: it fails a form with
 * required fields exactly as `content: {}` does (accepted form data is what must satisfy the
 * form; omitting it satisfies no required field).
 *
 * One finding per problem, at the result part's `text` (the answer is serialized MCP JSON), with
 * `data.innerPointer` naming the answer field inside it. When the answer cannot be checked,
 * ahp/elicitation-content-unverifiable (info) says so: never a silent pass. Each distinct
 * answer of an event is checked once (an intercepted result and its observation with unchanged
 * content are not reported twice; an observation carrying edited content is checked again).
 * AHP interaction-payloads.md §MCP elicitation binding (2025-11-25) ("must satisfy the
 * requesting form schema"; "Form defaults remain annotations, not values injected into answers").
 */
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The `ahp/elicitation-content-schema` rule, as described in the module comment above. */
export const elicitationContentSchema = defineAhpStreamRule({
  id: 'ahp/elicitation-content-schema',
  severity: 'error',
  description:
    "An accepted form elicitation result's content satisfies the requestedSchema of the request it answers (required fields, types, options, bounds, formats; no default injected; a missing content holds no required field).",
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  onEvent(facts, ctx) {
    const c = facts.event?.content;
    if (c?.status !== 'checked') return;
    const pointer = `${c.partPointer}/text`;
    const related = c.request ? [markLocation(c.request, '/params/event/elicitation/request')] : undefined;
    for (const p of c.problems) {
      const what =
        c.absent && p.keyword === 'required'
          ? `The accepted result has no \`content\`, but ${p.message}`
          : p.keyword === 'required'
            ? p.message.charAt(0).toUpperCase() + p.message.slice(1)
            : `${p.pointer === '' ? 'The answer' : `Answer field ${p.pointer.slice(1)}`} ${p.message}`;
      ctx.report({
        pointer,
        message: `${what}, so the answer does not satisfy the form of the request it answers (line ${c.request!.line}).`,
        data: { innerPointer: `/content${p.pointer}`, keyword: p.keyword },
        ...(related ? { related } : {}),
      });
    }
  },
});
