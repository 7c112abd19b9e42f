import { defineEventRule } from '../../core/engine.ts';
import { childPointer } from '../../core/pointer.ts';
import type { RuleContext } from '../../core/rule.ts';
import { CLASS_DESCRIPTIONS, credentialIn } from '../../core/secrets.ts';
import { isObj } from '../../core/value.ts';
import type { AhpMessage } from '../message.ts';
import { mayHoldSecretScreened } from '../secret-screen.ts';
import { namesCredential } from '../sensitive-names.ts';

/** The rule's templates, shared with the helpers that report for it. */
const MESSAGES = {
  event:
    'The event member `{member}` carries {what}; secret values must not occur in events, native metadata or extensions (capability-auth.md §Authentication bindings).',
  deny: 'The `deny` reason at `{member}` carries {what}; secret values must not occur in denial reasons (capability-auth.md §Authentication bindings).',
} as const;

/** Not read: model-visible `text`, opaque `input`/`params`/`suggestions`, other rules' `mcp` and `change`. */
const notRead = (k: string): boolean =>
  k === 'text' || k === 'input' || k === 'params' || k === 'suggestions' || k === 'mcp';
// bounds the walk of open objects (native payloads, extensions, task state)
const MAX_DEPTH = 16;

// a member name's credential verdict and the last clean value (and array element) under it: values recur by name
interface Member {
  name: string;
  credential: boolean;
  clean: string | undefined;
  cleanElement: string | undefined;
}

const members = new Map<string, Member>();

function memberOf(name: string): Member {
  let m = members.get(name);
  if (m === undefined) {
    if (members.size >= 4096) members.clear();
    m = { name, credential: namesCredential(name), clean: undefined, cleanElement: undefined };
    members.set(name, m);
  }
  return m;
}

/** The credential class `v` carries (its own shape, or the name of `member` with it), as words; or undefined. */
function carried(v: string, member: Member | undefined): string | undefined {
  // findSecrets' first test, screened and asked here: most strings fail it, and then its list and options are spared
  let m = mayHoldSecretScreened(v) ? credentialIn(v) : undefined;
  if (!m && member?.credential) m = credentialIn(`${JSON.stringify(member.name)}: ${JSON.stringify(v)}`);
  return m ? CLASS_DESCRIPTIONS[m.class] : undefined;
}

// the walk's state (it runs synchronously): the path below the event as keys, its pointers built only for a report
let walkCtx: RuleContext<typeof MESSAGES> | undefined;
let walkBase = '';
const walkKeys: (string | number)[] = [];

function pathOf(base: string, depth: number): string {
  let p = base;
  for (let i = 0; i < depth; i++) p = childPointer(p, walkKeys[i]!);
  return p;
}

function report(depth: number, what: string): void {
  walkCtx!.report({ pointer: pathOf(walkBase, depth), messageId: 'event', args: { member: pathOf('', depth), what } });
}

/** Report each string under `v` (member `key`, or element of `elements`; path: {@link walkKeys}) with a credential. */
function walk(v: unknown, key: string | undefined, elements: Member | undefined, depth: number): void {
  if (typeof v === 'string') {
    if (key !== undefined) {
      const m = memberOf(key);
      if (v === m.clean) return;
      const what = carried(v, m);
      if (what === undefined) m.clean = v;
      else report(depth, what);
    } else if (elements !== undefined) {
      if (v === elements.cleanElement) return;
      const what = carried(v, undefined);
      if (what === undefined) elements.cleanElement = v;
      else report(depth, what);
    } else {
      const what = carried(v, undefined);
      if (what !== undefined) report(depth, what);
    }
    return;
  }
  // a number is a value too (`"api_key": 12345678901234`, `"pin": 1234`): read with its name, as a text reads it
  if (typeof v === 'number' && key !== undefined) {
    const m = memberOf(key);
    const found = m.credential ? credentialIn(`${JSON.stringify(key)}: ${v}`) : undefined;
    if (found) report(depth, CLASS_DESCRIPTIONS[found.class]);
    return;
  }
  if (depth >= MAX_DEPTH || v === null || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    const named = key !== undefined ? memberOf(key) : undefined;
    for (let i = 0; i < v.length; i++) {
      walkKeys[depth] = i;
      walk(v[i], undefined, named, depth + 1);
    }
    return;
  }
  const o = v as Record<string, unknown>;
  for (const k in o)
    if (!notRead(k)) {
      walkKeys[depth] = k;
      walk(o[k], k, undefined, depth + 1);
    }
}

/** `ahp/event-secret`: src/core/secrets.ts over the event's own members; the message never shows the value. */
export const eventSecret = defineEventRule({
  id: 'ahp/event-secret',
  severity: 'error',
  description: 'An event carries no secret value, and neither does the `reason` of a `deny` effect.',
  detail:
    'A string with a credential-shaped value (PEM block, AWS access key id, Bearer token, `password=`/`token=`-style assignment, JWT, provider token), or a credential-named member (`token`, `password`, `apiKey`, `authorization` ..., or a name the detector reads as an assignment or PIN key: `aws_secret_access_key`, `pin`) with a credential-shaped assignment, a number under such a name included, in `native` metadata, `extensions`, attachment descriptors (`body.ref`, `category`) or any other event member is an error. Not read: content `text` (model-visible content under the subscription\'s selection policy), tool `input`, model `params` and permission `suggestions` (provider-native, opaque), the MCP descriptor and `source` (ahp/credential-exposed) and a configuration `change` (ahp/config-managed-secret). A secret without a recognisable shape or name cannot be seen. Also cited: base/transports/stdio.md §Process security ("MUST NOT place bearer tokens or unrelated credentials in event payloads"); content-upload.md §Configuration and destination ("Secrets MUST NOT appear in descriptor metadata")',
  spec: 'AHP capability-auth.md §Authentication bindings',
  quote:
    'Secret values MUST NOT occur in registration, events, native metadata, logs, denial reasons, or JSON-RPC error data',
  messages: MESSAGES,
  check(msg: AhpMessage, ctx) {
    // no screen of the whole line first: an event's line holds its source's `://`, so the screen failed on nearly every
    // event and cost half the walk (docs/benchmarks.md)
    const event = msg.event;
    const base = msg.eventPointer;
    if (base !== undefined && event) {
      const config = event.type === 'config.change.before' || event.type === 'config.change.after';
      walkCtx = ctx;
      walkBase = base;
      try {
        for (const k in event) {
          if (k === 'source' || notRead(k) || (config && k === 'change')) continue;
          // of `tool`, its name and kind: `input` and `mcp` are not read (notRead)
          walkKeys[0] = k;
          walk(event[k], k, undefined, 1);
        }
      } finally {
        walkCtx = undefined;
      }
    }
    if (msg.kind !== 'response' || !isObj(msg.value.result) || !Array.isArray(msg.value.result.effects)) return;
    const effects = msg.value.result.effects;
    for (let i = 0; i < effects.length; i++) {
      const e: unknown = effects[i];
      if (!isObj(e) || e.type !== 'deny' || typeof e.reason !== 'string') continue;
      const m = mayHoldSecretScreened(e.reason) ? credentialIn(e.reason) : undefined;
      if (m)
        ctx.report({
          pointer: `/result/effects/${i}/reason`,
          messageId: 'deny',
          args: { member: `effects/${i}/reason`, what: CLASS_DESCRIPTIONS[m.class] },
        });
    }
  },
});
