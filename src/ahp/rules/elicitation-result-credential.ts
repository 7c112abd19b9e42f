import { defineEventRule } from '../../core/engine.ts';
import { childPointer } from '../../core/pointer.ts';
import type { RuleContext } from '../../core/rule.ts';
import { CLASS_DESCRIPTIONS, credentialIn } from '../../core/secrets.ts';
import { isObj } from '../../core/value.ts';
import { checksOf, parsedObject } from '../elicitation-body.ts';
import type { AhpMessage } from '../message.ts';
import { namesCredential, secretIn } from '../sensitive-names.ts';

const MESSAGES = {
  carries:
    'The serialized MCP result of a URL-mode elicitation carries {what} at `{member}`; in URL mode, third-party credentials never transit through the MCP client (MCP §Understanding the Distinction).',
} as const;

// bounds the walk of the open result (`_meta` is any JSON)
const MAX_DEPTH = 8;

/** Whether member `name` names a credential, as ahp/event-secret reads names; MCP's `progressToken` is a progress id. */
const credentialName = (name: string): boolean => name !== 'progressToken' && namesCredential(name);

/** The credential `v` (the value of member `name`, if any) carries, as words; or undefined. */
function carried(v: string, name: string | undefined): string | undefined {
  const what = secretIn(v, false);
  if (what || name === undefined || !credentialName(name)) return what;
  const m = credentialIn(`${JSON.stringify(name)}: ${JSON.stringify(v)}`);
  return m ? CLASS_DESCRIPTIONS[m.class] : undefined;
}

/** Report each string under `v` (at `rel` in the result, member `name`) that carries a credential. */
function walk(
  v: unknown,
  rel: string,
  name: string | undefined,
  depth: number,
  at: string,
  ctx: RuleContext<typeof MESSAGES>,
): void {
  if (typeof v === 'string') {
    const what = carried(v, name);
    if (what) ctx.report({ pointer: at, args: { what, member: rel } });
    return;
  }
  if (depth >= MAX_DEPTH) return;
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) walk(v[i], `${rel}/${i}`, name, depth + 1, at, ctx);
  else if (isObj(v)) for (const [k, x] of Object.entries(v)) walk(x, childPointer(rel, k), k, depth + 1, at, ctx);
}

/**
 * `ahp/elicitation-result-credential`: the ElicitResult is the URL flow's one message back through the client. Form
 * answers are not read: what a user typed into a form field is the form's (ahp/elicitation-form-sensitive).
 */
export const elicitationResultCredential = defineEventRule({
  id: 'ahp/elicitation-result-credential',
  severity: 'error',
  description:
    'The serialized MCP result of a URL-mode elicitation carries no credential: a credential-shaped value anywhere in it (`_meta`, `content`) is an error.',
  detail:
    'Read in `user.elicitation.result` events whose AHP `mode` is `url` and whose result text parses as the MCP ElicitResult: every string, by the shared credential detector (src/core/secrets.ts: PEM block, AWS key id, Bearer or Basic credentials, JWT, provider token, `password=`-style assignment, a URL with userinfo or a credential parameter), and under a credential-named member (`token`, `access_token`, `id_token`, `password` ..., named as ahp/event-secret names them, but for the MCP `progressToken`, a progress correlation id) by its assignment. In URL mode the user gives sensitive data to the server directly, out of band; the result the MCP client returns is the one message of that flow that passes through the client, so a credential in it has transited through the client. A form-mode result is not read (its answers are what the form asked; asking for secrets in a form is ahp/elicitation-form-sensitive). A content member in a URL-mode result is also ahp/elicitation-content. The message names the member and the class, never the value. Also cited: capability-auth.md §Authentication bindings ("Secret values MUST NOT occur in registration, events, ...").',
  spec: 'MCP 2025-11-25 elicitation §Understanding the Distinction',
  quote: 'The third-party credentials MUST NOT transit through the MCP client',
  messages: MESSAGES,
  types: ['user.elicitation.result'],
  check(msg: AhpMessage, ctx) {
    const c = checksOf(msg.elicitation);
    if (c?.checks.kind !== 'result' || c.checks.envelope.mode !== 'url') return;
    const value = parsedObject(c.checks);
    if (value) walk(value, '', undefined, 0, c.checks.textPointer, ctx);
  },
});
