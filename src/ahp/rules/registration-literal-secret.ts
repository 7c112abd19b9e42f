import { defineEventRule } from '../../core/engine.ts';
import type { RuleContext } from '../../core/rule.ts';
import { childPointer } from '../../core/pointer.ts';
import { CLASS_DESCRIPTIONS, credentialIn } from '../../core/secrets.ts';
import { isObj, type Obj } from '../../core/value.ts';
import { registrationHooks, type AhpMessage } from '../message.ts';
import { isCredentialMember } from '../sensitive-names.ts';

/** A reference member: `tokenEnv`, `tokenRef`, `clientSecretRef`, `certificateRef` ... (names a secret, never holds one). */
const isReference = (member: string): boolean => member === 'tokenEnv' || member.endsWith('Ref');

const MESSAGES = {
  literal:
    'Authentication member `{member}` holds a literal credential; registration carries only credential references such as `tokenEnv` or `tokenRef`, never secret values (capability-auth.md §Authentication bindings).',
  reference:
    'Authentication reference `{member}` holds {what} instead of the name of a deployment-managed secret; credential references name secrets, never carry their values (capability-auth.md §Authentication bindings).',
} as const;

/** `ahp/registration-literal-secret`: names the member, never the value. */
export const registrationLiteralSecret = defineEventRule({
  id: 'ahp/registration-literal-secret',
  severity: 'error',
  description: 'Registration authentication carries credential references, never literal secret values.',
  detail:
    'A credential-named member (`token`, `password`, `clientSecret` ...) is an error, and so is a reference member (`tokenEnv`, `tokenRef`, `clientSecretRef` ...) whose value is itself credential-shaped (a Bearer token, JWT, provider token ...: src/core/secrets.ts) instead of the name of a deployment-managed secret. Read in `hooks[].authentication` and `subscriptions[].upload.auth`. Also cited: base/registration.md §HTTP transport fields.',
  spec: 'AHP capability-auth.md §Authentication bindings',
  messages: MESSAGES,
  check(msg: AhpMessage, ctx) {
    // the scan's closures are made only for a registration (a closure over `ctx` here cost a context every message)
    const hooks = registrationHooks(msg);
    if (hooks) scanHooks(hooks, ctx);
  },
});

function scanHooks(hooks: unknown[], ctx: RuleContext<typeof MESSAGES>): void {
  const scan = (auth: Obj, pointer: string) => {
    for (const [member, v] of Object.entries(auth)) {
      if (isCredentialMember(member, 'authentication'))
        ctx.report({ pointer: childPointer(pointer, member), messageId: 'literal', args: { member } });
      else if (isReference(member) && typeof v === 'string') {
        const m = credentialIn(v);
        if (m)
          ctx.report({
            pointer: childPointer(pointer, member),
            messageId: 'reference',
            args: { member, what: CLASS_DESCRIPTIONS[m.class] },
          });
      }
    }
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
}
