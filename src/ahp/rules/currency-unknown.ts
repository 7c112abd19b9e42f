import { defineEventRule } from '../../core/engine.ts';
import type { RuleContext } from '../../core/rule.ts';
import { isObj } from '../../core/value.ts';
import type { AhpMessage } from '../message.ts';

/** The rule's templates, shared with the helpers that report for it. */
const MESSAGES = {
  unknown:
    '`{member}` is three upper-case letters that ISO 4217 does not assign to a currency; pricing and cost use ISO-style currency codes (execution-payloads.md).',
} as const;

/**
 * The ISO 4217 codes the platform's Intl knows (`Intl.supportedValuesOf('currency')`): a constant of the platform, read
 * on first use (ICU's data costs RSS in every run that never meets a currency).
 */
let currencies: ReadonlySet<string> | undefined;

/** Report `currency` at `pointer` when it is a well-formed three-letter code that ISO 4217 does not assign. */
function check(currency: unknown, pointer: string, member: string, ctx: RuleContext<typeof MESSAGES>): void {
  // a malformed code is the schema stage's (ahp/overlay): only the shape it accepts is looked up
  if (
    typeof currency === 'string' &&
    /^[A-Z]{3}$/.test(currency) &&
    !(currencies ??= new Set(Intl.supportedValuesOf('currency'))).has(currency)
  )
    ctx.report({ pointer, args: { member } });
}

/** The event types whose payload carries `pricing` (model.switch.before) or `usage` (attempt and turn usage). */
const TYPE_LIST = ['model.switch.before', 'model.response.after', 'model.error', 'turn.finish.before', 'turn.end'];
const TYPES: ReadonlySet<unknown> = new Set(TYPE_LIST);

/** `ahp/currency-unknown`: the code list is the platform's (Node's ICU), not a hand-kept one. */
export const currencyUnknown = defineEventRule({
  id: 'ahp/currency-unknown',
  severity: 'error',
  description:
    'A `currency` is an ISO 4217 alphabetic code the platform knows (`Intl.supportedValuesOf(\'currency\')`): three upper-case letters that name no currency (e.g. "ABC") are an error.',
  detail:
    'The currencies: model-switch `pricing.currency` on `model.switch.before`, usage `cost.currency` on model and turn events. The shape (three upper-case letters) is the schema\'s (`ahp/overlay`). The list is ICU\'s: the ISO 4217 codes for no currency, precious metals and testing (XXX, XAU, XTS ...) are not in it. Also cited: §Content and accounting ("three-letter currency")',
  spec: 'AHP execution-payloads.md §Execution, calls, and model attempts',
  quote: 'ISO-style uppercase three-letter currency',
  messages: MESSAGES,
  types: TYPE_LIST,
  check(msg: AhpMessage, ctx) {
    const event = msg.event;
    const base = msg.eventPointer;
    if (base === undefined || !event || !TYPES.has(event.type)) return;
    if (isObj(event.pricing)) check(event.pricing.currency, `${base}/pricing/currency`, 'pricing.currency', ctx);
    if (isObj(event.usage) && isObj(event.usage.cost))
      check(event.usage.cost.currency, `${base}/usage/cost/currency`, 'usage.cost.currency', ctx);
  },
});
