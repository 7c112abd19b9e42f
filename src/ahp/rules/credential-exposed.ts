import { defineEventRule } from '../../core/engine.ts';
import { childPointer } from '../../core/pointer.ts';
import type { RuleContext } from '../../core/rule.ts';
import { isObj } from '../../core/value.ts';
import { requestUrlOf } from '../elicitation-body.ts';
import type { AhpMessage } from '../message.ts';
import { secretIn, sourceSecretIn, urlCredentialIn } from '../sensitive-names.ts';

/** The rule's templates, shared with the helpers that report for it. */
const MESSAGES = {
  source:
    'The event `source` carries {what}; `source` is a stable, non-secret URI that must not contain access tokens, user secrets or other sensitive data (base/events.md §Common event fields).',
  descriptor:
    'The MCP descriptor member `{member}` carries {what}; descriptors never carry credentials: remove them (URL userinfo, headers, cookies, secret environment and argument values) and leave an explicit gap (execution-payloads.md).',
  elicitationUrl:
    'The `url` of the serialized MCP elicitation request carries {what}; secret values must not occur in events (capability-auth.md §Authentication bindings), and a URL elicitation carries no credential and is not pre-authenticated (MCP §Safe URL Handling).',
} as const;

// bounds the walk of an (open) descriptor object
const MAX_DEPTH = 8;

/** Report each string of MCP descriptor `v` that carries a credential; `isUrl`: `v` is the connection `url`. */
function walk(
  v: unknown,
  pointer: string,
  rel: string,
  depth: number,
  isUrl: boolean,
  ctx: RuleContext<typeof MESSAGES>,
): void {
  if (typeof v === 'string') {
    const what = secretIn(v, isUrl);
    if (what) ctx.report({ pointer, messageId: 'descriptor', args: { member: `mcp${rel}`, what } });
    return;
  }
  if (depth >= MAX_DEPTH) return;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) walk(v[i], `${pointer}/${i}`, `${rel}/${i}`, depth + 1, false, ctx);
  } else if (isObj(v))
    for (const [k, x] of Object.entries(v))
      walk(x, childPointer(pointer, k), childPointer(rel, k), depth + 1, k === 'url' && rel === '/connection', ctx);
}

/**
 * src/core/secrets.ts plus URL userinfo and credential-named parameters; tool `input` is provider-native, so not read.
 */
export const credentialExposed = defineEventRule({
  id: 'ahp/credential-exposed',
  severity: 'error',
  description:
    'An MCP tool descriptor (`tool.mcp`, also in `tool.batch.after` calls), the event `source` and a URL elicitation `url` carry no credential.',
  detail:
    'A string with a credential-shaped value (PEM block, AWS access key id, Bearer or Basic credentials, `password=`/`token=`-style assignment, JWT, provider token) or a URL with userinfo or a query or fragment parameter whose name asks for a credential (as ahp/elicitation-url-secret) is an error: "Secret values MUST NOT occur in registration, events, ..." (capability-auth.md), and the same string is an error in ahp/config-managed-secret and in aep validate (one string, one answer; issue 43). Tool `input` is not read (provider-native and opaque), nor can a secret without a recognisable shape or name be seen. A URL (in a descriptor, `source`, or the `url` of a URL-mode elicitation request) is read by the same detector as written and with each query or fragment parameter percent-decoded (a JWT or Bearer token under a harmless name); in an elicitation `url`, a credential-named parameter with no detected value stays a warning of ahp/elicitation-url-secret. The message names the member and the class, never the value. Also cited: MCP 2025-11-25 elicitation §Safe URL Handling ("MUST NOT include sensitive information about the end-user, including credentials ... in the URL");  execution-payloads.md §Identity and native boundary duties ("Remove credentials, URL userinfo, headers/cookies and secret environment/argument values"); base/events.md §Common event fields (`source` "MUST NOT contain access tokens, user secrets, raw prompts, or other sensitive data"); capability-auth.md §Authentication bindings ("Secret values MUST NOT occur in registration, events, ...")',
  spec: 'AHP execution-payloads.md §Execution, calls, and model attempts',
  quote: 'Descriptors never carry credentials',
  messages: MESSAGES,
  check(msg: AhpMessage, ctx) {
    const event = msg.event;
    const base = msg.eventPointer;
    if (base === undefined || !event) return;
    if (typeof event.source === 'string') {
      const what = sourceSecretIn(event.source);
      if (what) ctx.report({ pointer: `${base}/source`, messageId: 'source', args: { what } });
    }
    const tool = event.tool;
    const el = event.type === 'user.elicitation.request' ? requestUrlOf(msg.elicitation) : undefined;
    const inUrl = el && urlCredentialIn(el.url, el.u);
    if (inUrl) ctx.report({ pointer: el.c.checks.textPointer, messageId: 'elicitationUrl', args: { what: inUrl } });
    if (isObj(tool) && isObj(tool.mcp)) walk(tool.mcp, `${base}/tool/mcp`, '', 0, false, ctx);
    if (event.type === 'tool.batch.after' && Array.isArray(event.calls)) {
      for (let i = 0; i < event.calls.length; i++) {
        const c: unknown = event.calls[i];
        if (isObj(c) && isObj(c.tool) && isObj(c.tool.mcp))
          walk(c.tool.mcp, `${base}/calls/${i}/tool/mcp`, '', 0, false, ctx);
      }
    }
  },
});
