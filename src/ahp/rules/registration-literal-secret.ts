import { defineEventRule } from '../../core/engine.ts';
import { childPointer } from '../../core/pointer.ts';
import { isObj, type Obj } from '../../core/value.ts';
import { registrationHooks, type AhpMessage } from '../message.ts';

/**
 * Names of literal credentials (case-insensitive, without `-`/`_`): `client_secret` matches, `tokenEnv` / `*Ref` do
 * not.
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

/** `ahp/registration-literal-secret`: names the member, never the value. */
export const registrationLiteralSecret = defineEventRule<AhpMessage, 'ahp/registration-literal-secret'>({
  id: 'ahp/registration-literal-secret',
  severity: 'error',
  description: 'Registration authentication carries credential references, never literal secret values.',
  spec: 'AHP capability-auth.md §Authentication bindings; base/registration.md §HTTP transport fields',
  messages: {
    literal:
      'Authentication member `{member}` holds a literal credential; registration carries only credential references such as `tokenEnv` or `tokenRef`, never secret values (capability-auth.md §Authentication bindings).',
  },
  check(msg, ctx) {
    const hooks = registrationHooks(msg);
    if (!hooks) return;
    const scan = (auth: Obj, pointer: string) => {
      for (const member of Object.keys(auth))
        if (LITERAL_SECRET_NAMES.has(member.toLowerCase().replace(/[-_]/g, '')))
          ctx.report({ pointer: childPointer(pointer, member), args: { member } });
    };
    hooks.forEach((hook, i) => {
      if (!isObj(hook)) return;
      if (isObj(hook.authentication)) scan(hook.authentication, `/hooks/${i}/authentication`);
      if (Array.isArray(hook.subscriptions))
        hook.subscriptions.forEach((sub, j) => {
          if (isObj(sub) && isObj(sub.upload) && isObj(sub.upload.auth))
            scan(sub.upload.auth, `/hooks/${i}/subscriptions/${j}/upload/auth`);
        });
    });
  },
});
