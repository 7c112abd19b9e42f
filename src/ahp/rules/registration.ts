/**
 * Per-event rules of portable registration documents that JSON Schema cannot express
 * (AHP base/registration.md §Backend fields; capability-auth.md §Authentication bindings).
 * Both tolerate any shape (schema problems are the message-schema stage's) and never echo a
 * backend id or a secret value.
 */
import { defineEventRule } from '../../core/engine.ts';
import { childPointer } from '../../core/pointer.ts';
import type { AhpMessage } from '../message.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The `hooks` of a registration document, when it is one with a list of hooks. */
function hooksOf(msg: AhpMessage): unknown[] | undefined {
  if (msg.kind !== 'registration' || !isObj(msg.value) || !Array.isArray(msg.value.hooks)) return undefined;
  return msg.value.hooks;
}

/** Backend ids are unique within a registration document. */
export const registrationDuplicateId = defineEventRule<AhpMessage, 'ahp/registration-duplicate-id'>({
  id: 'ahp/registration-duplicate-id',
  severity: 'error',
  description: 'Backend ids are unique within a registration document.',
  spec: 'AHP base/registration.md §Backend fields',
  check(msg, ctx) {
    const hooks = hooksOf(msg);
    if (!hooks) return;
    const firstIndex = new Map<string, number>();
    hooks.forEach((hook, i) => {
      if (!isObj(hook) || typeof hook.id !== 'string') return;
      const prev = firstIndex.get(hook.id);
      if (prev === undefined) firstIndex.set(hook.id, i);
      else
        ctx.report({
          pointer: `/hooks/${i}/id`,
          message: `Backend id repeats the id of /hooks/${prev}; backend ids are unique within a registration document.`,
        });
    });
  },
});

/**
 * Member names that hold a literal credential rather than a reference. Compared
 * case-insensitively with `-` and `_` removed, so `client_secret` and `clientSecret` match while
 * the reference members `tokenEnv`, `tokenRef` and `clientSecretRef` do not.
 */
const LITERAL_SECRET_NAMES = new Set([
  'token',
  'accesstoken',
  'bearertoken',
  'idtoken',
  'refreshtoken',
  'password',
  'secret',
  'clientsecret',
  'apikey',
  'privatekey',
  'credential',
  'credentials',
  'authorization',
]);

/** No literal secrets in `hooks[].authentication` nor `hooks[].subscriptions[].upload.auth`. */
export const registrationLiteralSecret = defineEventRule<AhpMessage, 'ahp/registration-literal-secret'>({
  id: 'ahp/registration-literal-secret',
  severity: 'error',
  description: 'Registration authentication carries credential references, never literal secret values.',
  spec: 'AHP capability-auth.md §Authentication bindings; base/registration.md §HTTP transport fields',
  check(msg, ctx) {
    const hooks = hooksOf(msg);
    if (!hooks) return;
    const scan = (auth: Obj, pointer: string) => {
      for (const key of Object.keys(auth)) {
        if (LITERAL_SECRET_NAMES.has(key.toLowerCase().replace(/[-_]/g, ''))) {
          ctx.report({
            pointer: childPointer(pointer, key),
            message: `Authentication member \`${key}\` holds a literal credential; registration carries only credential references such as \`tokenEnv\` or \`tokenRef\`, never secret values (capability-auth.md §Authentication bindings).`,
          });
        }
      }
    };
    hooks.forEach((hook, i) => {
      if (!isObj(hook)) return;
      if (isObj(hook.authentication)) scan(hook.authentication, `/hooks/${i}/authentication`);
      if (Array.isArray(hook.subscriptions)) {
        hook.subscriptions.forEach((sub, j) => {
          if (isObj(sub) && isObj(sub.upload) && isObj(sub.upload.auth))
            scan(sub.upload.auth, `/hooks/${i}/subscriptions/${j}/upload/auth`);
        });
      }
    });
  },
});
