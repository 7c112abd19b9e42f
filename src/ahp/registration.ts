/**
 * Code checks of portable registration documents that JSON Schema cannot express
 * (AHP base/registration.md §Backend fields; capability-auth.md §Authentication bindings).
 */
import { childPointer } from '../core/pointer.ts';
import { issue, type AhpIssue } from './issues.ts';

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Member names that hold a literal credential rather than a reference. Compared
 * case-insensitively with `-` and `_` removed, so `client_secret` and `clientSecret` match while
 * the reference members `tokenEnv`, `tokenRef` and `clientSecretRef` do not.
 */
const LITERAL_SECRET_NAMES = new Set(['token', 'accesstoken', 'bearertoken', 'idtoken', 'refreshtoken', 'password', 'secret', 'clientsecret', 'apikey', 'privatekey', 'credential', 'credentials', 'authorization']);

function literalSecretMembers(auth: Obj, pointer: string, out: AhpIssue[]): void {
  for (const key of Object.keys(auth)) {
    if (LITERAL_SECRET_NAMES.has(key.toLowerCase().replace(/[-_]/g, ''))) {
      out.push(issue('ahp/registration-literal-secret', childPointer(pointer, key), `Authentication member \`${key}\` holds a literal credential; registration carries only credential references such as \`tokenEnv\` or \`tokenRef\`, never secret values (capability-auth.md §Authentication bindings).`));
    }
  }
}

/**
 * Duplicate backend ids and literal secrets in `hooks[].authentication` and
 * `hooks[].subscriptions[].upload.auth`. Tolerates any shape (schema problems are reported
 * elsewhere). Never echoes a backend id or a secret value.
 */
export function checkRegistration(doc: unknown): AhpIssue[] {
  const out: AhpIssue[] = [];
  if (!isObj(doc) || !Array.isArray(doc.hooks)) return out;
  const firstIndex = new Map<string, number>();
  doc.hooks.forEach((hook, i) => {
    if (!isObj(hook)) return;
    const hp = `/hooks/${i}`;
    if (typeof hook.id === 'string') {
      const prev = firstIndex.get(hook.id);
      if (prev === undefined) firstIndex.set(hook.id, i);
      else out.push(issue('ahp/registration-duplicate-id', `${hp}/id`, `Backend id repeats the id of /hooks/${prev}; backend ids are unique within a registration document.`));
    }
    if (isObj(hook.authentication)) literalSecretMembers(hook.authentication, `${hp}/authentication`, out);
    if (Array.isArray(hook.subscriptions)) {
      hook.subscriptions.forEach((sub, j) => {
        if (isObj(sub) && isObj(sub.upload) && isObj(sub.upload.auth)) literalSecretMembers(sub.upload.auth, `${hp}/subscriptions/${j}/upload/auth`, out);
      });
    }
  });
  return out;
}
