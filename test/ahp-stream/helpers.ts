import { fileURLToPath } from 'node:url';
import type { AhpStreamState } from '../../src/ahp/analyzers/model.ts';
import type { AhpStreamOptions } from '../../src/ahp/analyzers/options.ts';
import type { AhpRuleId as AhpListedRuleId } from '../../src/ahp/rules/index.ts';
import type { Finding } from '../../src/core/finding.ts';
import { ahpDriver, runPipeline } from '../run.ts';
import { SHARED, sharedPath } from '../shared.ts';

/** `<repo>/` resolved from this file. */
export const REPO_DIR = fileURLToPath(new URL('../../', import.meta.url));
/** The upstream AHP draft fixture corpus; it may be absent (test/shared.ts). */
export const AHP_CORPUS_DIR = sharedPath(SHARED.ahpCorpus) + '/';

/** What a test run may set besides the caps: a rule selection, and a view of the run's analyzers. */
export interface CheckOptions {
  rules?: ReadonlySet<string>;
  onStreamState?: (state: AhpStreamState) => void;
}

/** Check `lines` (objects or raw strings, one JSONL line each) with the AHP checker; every finding, in order. */
export async function check(
  lines: readonly unknown[],
  stream: Partial<AhpStreamOptions> = {},
  opts: CheckOptions = {},
): Promise<Finding[]> {
  const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
  const findings: Finding[] = [];
  await runPipeline(
    [
      {
        source: 'case.jsonl',
        open: async function* () {
          yield text;
        },
      },
    ],
    ahpDriver({ stream, ...opts }),
    (f) => findings.push(f),
  );
  return findings;
}

/** A rule id `ahp validate` can report: a stream rule (checked at compile time) or a per-message rule. */
export type AhpRuleId = AhpListedRuleId | `ahp/${string}`;

/**
 * Run one rule alone over `lines` (the driver's rule selection; framing findings `jsonl/*`,
 * `json/*` always appear) and return its findings in the compact {@link brief} form, asserting
 * that nothing of another rule was reported.
 */
export async function runRule(
  id: AhpRuleId,
  lines: readonly unknown[],
  stream: Partial<AhpStreamOptions> = {},
): Promise<string[]> {
  const findings = await check(lines, stream, { rules: new Set([id]) });
  const others = findings.filter(
    (f) => f.ruleId !== id && !f.ruleId.startsWith('jsonl/') && !f.ruleId.startsWith('json/'),
  );
  if (others.length) throw new Error(`runRule(${id}) reported other rules: ${brief(others).join(', ')}`);
  return brief(findings);
}

/** `error:ahp/x@3/pointer` for each finding: compact text for assertions. */
export function brief(findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.severity}:${f.ruleId}@${f.line ?? '-'}${f.pointer ?? ''}`);
}

type Obj = Record<string, unknown>;

export const SRC = 'urn:test:harness';
export const SRC2 = 'urn:test:other-harness';
const time = (s: number) => `2026-09-15T12:00:${String(s).padStart(2, '0')}Z`;

/** A body-selected text part. */
export const text = (t: string, id = 'p1'): Obj => ({
  id,
  kind: 'text',
  mediaType: 'text/plain',
  selection: 'body',
  text: t,
});
/** A canonical message with one text part. */
export const msg = (role: string, t = 'hello', id = 'm1'): Obj => ({ id, role, parts: [text(t, id + '-text')] });

/** An event envelope of `type` with `body` members (time from `sec`). */
export function ev(id: string, type: string, body: Obj = {}, sec = 0, source = SRC): Obj {
  return { id, source, time: time(sec), type, ...body };
}

const tool = { name: 'Bash', kind: 'shell', input: { command: 'ls' }, origin: 'native' };
export const toolBefore = (id: string, extra: Obj = {}, sec = 0, source = SRC) =>
  ev(id, 'tool.before', { tool, call: { id: `c-${id}` }, path: 'native', ...extra }, sec, source);
export const toolAfter = (id: string, parent: string, extra: Obj = {}) =>
  ev(id, 'tool.after', {
    parentEventId: parent,
    tool,
    call: { id: `c-${parent}` },
    path: 'native',
    outcome: 'ok',
    execution: { status: 'executed' },
    items: [msg('tool', 'done', 'o1')],
    ...extra,
  });
const change = { source: 'user-settings', scope: 'user', settings: ['model'], summary: 'Switch the default model.' };
export const cfgBefore = (id: string) => ev(id, 'config.change.before', { change });
export const cfgAfter = (id: string, parent: string) =>
  ev(id, 'config.change.after', { parentEventId: parent, change });
export const outbound = (id: string, messages: unknown[] = [msg('assistant')]) =>
  ev(id, 'user.message.outbound', { message: { channel: 'chat', messages } });

/** The form used by the elicitation tests. */
export const FORM = {
  message: 'Who?',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1 },
      team: { type: 'string', enum: ['ops', 'dev'] },
      count: { type: 'integer', minimum: 1, maximum: 5 },
      notify: { type: 'boolean', default: true },
    },
    required: ['name', 'notify'],
  },
};
export const URL_REQUEST = { mode: 'url', message: 'Sign in', url: 'https://auth.example.com/x', elicitationId: 'e1' };

export function elicRequest(
  id: string,
  opts: { server?: string; mode?: string; body?: unknown; part?: Obj } = {},
): Obj {
  const part = opts.part ?? text(JSON.stringify(opts.body ?? FORM), `rq-${id}`);
  return ev(id, 'user.elicitation.request', {
    elicitation: { server: opts.server ?? 'mcp:x', mode: opts.mode ?? 'form', request: part },
  });
}

export function elicResult(
  id: string,
  parent: string | undefined,
  opts: { server?: string; mode?: string; action?: string; content?: unknown; result?: unknown } = {},
): Obj {
  const action = opts.action ?? 'accept';
  const mode = opts.mode ?? 'form';
  const result = opts.result ?? (opts.content !== undefined ? { action, content: opts.content } : { action });
  return ev(id, 'user.elicitation.result', {
    ...(parent !== undefined ? { parentEventId: parent } : {}),
    elicitation: { server: opts.server ?? 'mcp:x', mode, action, result: text(JSON.stringify(result), `rs-${id}`) },
  });
}

/** Capabilities advertised with each intercepted event type in these tests. */
export const CAPS: Record<string, Obj> = {
  'tool.before': { effects: ['deny', 'allow', 'ask', 'message'] },
  'tool.after': {
    effects: ['modify', 'message', 'flow'],
    modify: { output: { replace: true, merge: true } },
    flow: { operations: ['stop', 'continue'], remainingContinuations: 1, continuationCount: 0 },
  },
  'config.change.before': { effects: ['deny', 'message'] },
  'user.elicitation.request': { effects: ['deny', 'return', 'message'], elicitation: { form: {} } },
  'user.elicitation.result': {
    effects: ['modify', 'message'],
    modify: { content: { replace: true, merge: true } },
    elicitation: { form: {} },
  },
  'user.message.outbound': {
    effects: ['deny', 'modify', 'message'],
    modify: { content: { replace: true, merge: true } },
  },
};

export const observe = (e: Obj): Obj => ({
  jsonrpc: '2.0',
  method: 'hooks/observe',
  params: { protocolVersion: 'draft', event: e },
});
export const intercept = (
  e: Obj,
  capabilities: Obj = CAPS[e.type as string] ?? { effects: ['message'] },
  id: unknown = e.id,
): Obj => ({
  jsonrpc: '2.0',
  id,
  method: 'hooks/intercept',
  params: { protocolVersion: 'draft', event: e, capabilities },
});
export const ok = (id: unknown, effects: unknown[] = []): Obj => ({
  jsonrpc: '2.0',
  id,
  result: { protocolVersion: 'draft', effects },
});
export const fail = (id: unknown, code = -32003): Obj => ({
  jsonrpc: '2.0',
  id,
  error: { code, message: 'backend_unavailable' },
});
export const capsRequest = (id = 'd1'): Obj => ({
  jsonrpc: '2.0',
  id,
  method: 'hooks/capabilities',
  params: { protocolVersion: 'draft' },
});
export function capsResponse(id: string, events: unknown[]): Obj {
  return {
    jsonrpc: '2.0',
    id,
    result: {
      protocolVersion: 'draft',
      manifest: {
        events,
        gaps: [{ path: 'limits', reason: 'limits are not known' }],
        transports: ['stdio'],
        authentication: [],
        toolPaths: ['native'],
        contentCategories: ['text'],
        limits: {},
        managedPolicy: { scopes: ['user'], disableable: true },
        correlationIdentityFields: ['id'],
      },
    },
  };
}
export const merge = (value: unknown, target = 'content'): Obj => ({
  type: 'modify',
  target,
  operation: 'merge',
  value,
});
export const replace = (value: unknown, target = 'content'): Obj => ({
  type: 'modify',
  target,
  operation: 'replace',
  value,
});
