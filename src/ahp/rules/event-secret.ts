import { defineEventRule } from '../../core/engine.ts';
import { childPointer } from '../../core/pointer.ts';
import type { RuleContext } from '../../core/rule.ts';
import { CLASS_DESCRIPTIONS, credentialIn, mayHoldSecret } from '../../core/secrets.ts';
import { isObj } from '../../core/value.ts';
import type { AhpMessage } from '../message.ts';
import { isCredentialMember } from '../sensitive-names.ts';

/** The rule's templates, shared with the helpers that report for it. */
const MESSAGES = {
  event:
    'The event member `{member}` carries {what}; secret values must not occur in events, native metadata or extensions (capability-auth.md §Authentication bindings).',
  deny: 'The `deny` reason at `{member}` carries {what}; secret values must not occur in denial reasons (capability-auth.md §Authentication bindings).',
} as const;

/** Not read: model-visible `text`, opaque `input`/`params`/`suggestions`, other rules' `mcp` and `change`. */
const NOT_READ = new Set(['text', 'input', 'params', 'suggestions', 'mcp']);
// bounds the walk of open objects (native payloads, extensions, task state)
const MAX_DEPTH = 16;

/** The credential class `v` carries (its own shape, or its member name with it), as words; or undefined. */
function carried(v: string, key: string | undefined): string | undefined {
  let m = credentialIn(v);
  if (!m && key !== undefined && isCredentialMember(key, 'event'))
    m = credentialIn(`${JSON.stringify(key)}: ${JSON.stringify(v)}`);
  return m ? CLASS_DESCRIPTIONS[m.class] : undefined;
}

/** Report each string under `v` (at `pointer`) that carries a credential; `rel` names the member for the message. */
function walk(
  v: unknown,
  key: string | undefined,
  pointer: string,
  rel: string,
  depth: number,
  ctx: RuleContext<typeof MESSAGES>,
): void {
  if (typeof v === 'string') {
    const what = carried(v, key);
    if (what) ctx.report({ pointer, messageId: 'event', args: { member: rel, what } });
    return;
  }
  if (depth >= MAX_DEPTH) return;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) walk(v[i], undefined, `${pointer}/${i}`, `${rel}/${i}`, depth + 1, ctx);
  } else if (isObj(v))
    for (const [k, x] of Object.entries(v))
      if (!NOT_READ.has(k)) walk(x, k, childPointer(pointer, k), childPointer(rel, k), depth + 1, ctx);
}

/** `ahp/event-secret`: src/core/secrets.ts over the event's own members; the message never shows the value. */
export const eventSecret = defineEventRule({
  id: 'ahp/event-secret',
  severity: 'error',
  description: 'An event carries no secret value, and neither does the `reason` of a `deny` effect.',
  detail:
    'A string with a credential-shaped value (PEM block, AWS access key id, Bearer token, `password=`/`token=`-style assignment, JWT, provider token), or a credential-named member (`token`, `password`, `apiKey`, `authorization` ...) with a credential-shaped assignment, in `native` metadata, `extensions`, attachment descriptors (`body.ref`, `category`) or any other event member is an error. Not read: content `text` (model-visible content under the subscription\'s selection policy), tool `input`, model `params` and permission `suggestions` (provider-native, opaque), the MCP descriptor and `source` (ahp/credential-exposed) and a configuration `change` (ahp/config-managed-secret). A secret without a recognisable shape or name cannot be seen. Also cited: base/transports/stdio.md §Process security ("MUST NOT place bearer tokens or unrelated credentials in event payloads"); content-upload.md §Configuration and destination ("Secrets MUST NOT appear in descriptor metadata")',
  spec: 'AHP capability-auth.md §Authentication bindings',
  quote:
    'Secret values MUST NOT occur in registration, events, native metadata, logs, denial reasons, or JSON-RPC error data',
  messages: MESSAGES,
  check(msg: AhpMessage, ctx) {
    // one screen of the whole line: most messages hold none of the literals a secret opens with (not screened: a value
    // checked without its text, and a line with \u escapes, whose decoded strings the raw text does not show)
    const text = msg.text;
    if (text !== '' && !text.includes('\\u') && !mayHoldSecret(text)) return;
    const event = msg.event;
    const base = msg.eventPointer;
    if (base !== undefined && event) {
      const config = event.type === 'config.change.before' || event.type === 'config.change.after';
      for (const [k, x] of Object.entries(event)) {
        if (k === 'source' || NOT_READ.has(k) || (config && k === 'change')) continue;
        if (k === 'tool' && isObj(x)) {
          // the tool's name and kind; `input` and `mcp` are not read
          walk(x, k, `${base}/tool`, '/tool', 1, ctx);
          continue;
        }
        walk(x, k, childPointer(base, k), childPointer('', k), 1, ctx);
      }
    }
    if (msg.kind !== 'response' || !isObj(msg.value.result) || !Array.isArray(msg.value.result.effects)) return;
    const effects = msg.value.result.effects;
    for (let i = 0; i < effects.length; i++) {
      const e: unknown = effects[i];
      if (!isObj(e) || e.type !== 'deny' || typeof e.reason !== 'string') continue;
      const m = credentialIn(e.reason);
      if (m)
        ctx.report({
          pointer: `/result/effects/${i}/reason`,
          messageId: 'deny',
          args: { member: `effects/${i}/reason`, what: CLASS_DESCRIPTIONS[m.class] },
        });
    }
  },
});
