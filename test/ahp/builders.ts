/**
 * Builders of AHP draft test messages: a minimal valid body for every catalogue event, and
 * wrappers for observe notifications, intercept requests and responses.
 */
export const SRC = 'urn:test:harness';
export const TIME = '2026-09-15T12:00:00Z';

type Obj = Record<string, unknown>;

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

const tool = { name: 'Bash', kind: 'shell', input: { command: 'ls' }, origin: 'native' };
const model = { id: 'model-a', provider: 'example' };
const attempt = { id: 'attempt-1', number: 1 };
const manifest = {
  events: [{ event: 'tool.before', modes: ['intercept'], capabilities: { effects: ['deny'] } }],
  gaps: [{ path: 'limits', reason: 'limits are not known' }],
  transports: ['stdio'],
  authentication: ['bearer'],
  toolPaths: ['native'],
  contentCategories: ['text'],
  limits: {},
  managedPolicy: { scopes: ['user'], disableable: true },
  correlationIdentityFields: ['id'],
};
const change = { source: 'user-settings', scope: 'user', settings: ['model'], summary: 'Switch the default model.' };

/** The event-specific members of a minimal valid event of every draft catalogue type. */
export const MINIMAL: Record<string, Obj> = {
  'tool.before': { tool, call: { id: 'c1' }, path: 'native' },
  'tool.after': {
    tool,
    call: { id: 'c1' },
    path: 'native',
    outcome: 'ok',
    execution: { status: 'executed' },
    items: [],
  },
  'session.start': {
    session: { id: 's1' },
    trigger: 'startup',
    harness: { name: 'h', version: '1' },
    permissionMode: 'default',
    manifest,
    items: [],
  },
  'session.end': { session: { id: 's1' }, outcome: 'completed', reason: 'user exit' },
  'config.change.before': { change },
  'config.change.after': { change: { ...change, mcpServers: [{ name: 'x' }] } },
  'turn.start': { turn: { id: 't1' }, trigger: 'user', items: [msg('user')] },
  'turn.finish.before': { turn: { id: 't1' }, outcome: 'completed', continuationCount: 0, items: [] },
  'turn.end': { turn: { id: 't1' }, outcome: 'completed', continuationCount: 1, items: [] },
  'turn.progress': { turn: { id: 't1' }, item: { id: 'i1' }, delta: msg('assistant'), final: false },
  'model.request.before': { model, attempt, params: {}, items: [msg('system'), msg('user', 'hi', 'm2')] },
  'model.response.after': {
    model,
    attempt,
    execution: { status: 'executed' },
    items: [msg('assistant')],
    finishReason: 'stop',
  },
  'model.error': {
    model,
    attempt,
    execution: { status: 'executed' },
    error: { class: 'rate_limit', message: 'slow down' },
  },
  'model.switch.before': {
    current: model,
    proposed: { ...model, id: 'model-b' },
    reason: 'user request',
    pricing: { currency: 'USD', inputPerMillionTokens: 3 },
  },
  'model.switch.after': { previous: model, current: { ...model, id: 'model-b' }, reason: 'user request' },
  'tool.permission.request': {
    tool,
    call: { id: 'c1' },
    path: 'native',
    suggestions: [{ rule: 'allow ls' }],
    sandboxBypass: false,
  },
  'tool.permission.resolved': { tool, call: { id: 'c1' }, path: 'native', decision: 'allow', decidedBy: 'user' },
  'tool.progress': { tool, call: { id: 'c1' }, path: 'native', partialOutput: msg('tool'), backgrounded: false },
  'tool.batch.after': {
    batch: { id: 'b1', callIds: ['c1', 'c2'] },
    calls: [{ call: { id: 'c1' }, tool, path: 'native', outcome: 'ok', execution: { status: 'executed' } }],
  },
  'context.compact.before': { trigger: 'auto', items: [], instructions: [text('Keep decisions.')] },
  'context.compact.after': { summary: [text('Summary.')], removed: [], execution: { status: 'executed' } },
  'task.change.before': { task: { id: 'task1', operation: 'create', change: { status: 'open' } } },
  'task.change.after': {
    task: {
      id: 'task1',
      operation: 'update',
      change: { status: 'done' },
      prior: { status: 'open' },
      description: 'Write notes',
    },
  },
  'user.attention': { attention: { kind: 'idle', message: [text('Waiting for you.')], title: [text('Idle', 'p2')] } },
  'user.elicitation.request': {
    elicitation: {
      server: 'mcp:x',
      mode: 'form',
      request: text(
        '{"message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}',
      ),
    },
  },
  'user.elicitation.result': {
    parentEventId: 'evt0',
    elicitation: {
      server: 'mcp:x',
      mode: 'form',
      action: 'accept',
      result: text('{"action":"accept","content":{"name":"Ada"}}'),
    },
  },
  'user.message.inbound': { message: { channel: 'chat', sender: 'u1', messages: [msg('user')] } },
  'user.message.outbound': { message: { channel: 'chat', messages: [msg('assistant')] } },
  'workspace.change.before': { workspace: { kind: 'cwd', change: { cwd: '/new' }, prior: { cwd: '/old' } } },
  'workspace.change.after': { workspace: { kind: 'roots', change: { workspaceRoots: [] }, reason: 'closed folder' } },
  'file.changed': {
    changes: [
      {
        path: 'a.txt',
        operation: 'update',
        agentCaused: true,
        before: text('old\n', 'f1'),
        after: text('new\n', 'f2'),
      },
    ],
  },
  'hook.failure': {
    parentEventId: 'evt0',
    failure: { backendId: 'com.example.policy', reason: 'timeout', policy: 'fail-closed' },
  },
};

/** A full event: envelope + the minimal body of `type` + `extra` members. */
export function event(type: string, extra: Obj = {}): Obj {
  return { id: 'evt1', source: SRC, time: TIME, type, ...structuredClone(MINIMAL[type] ?? {}), ...extra };
}

/** A hooks/observe notification carrying `ev`. */
export function observe(ev: Obj): Obj {
  return { jsonrpc: '2.0', method: 'hooks/observe', params: { protocolVersion: 'draft', event: ev } };
}

/** A hooks/intercept request carrying `ev` (id = event id) and `capabilities`. */
export function intercept(ev: Obj, capabilities: Obj = { effects: ev.type === 'tool.before' ? ['deny'] : [] }): Obj {
  return {
    jsonrpc: '2.0',
    id: ev.id,
    method: 'hooks/intercept',
    params: { protocolVersion: 'draft', event: ev, capabilities },
  };
}

/** An intercept response with `effects`. */
export function response(effects: unknown[], id: unknown = 'evt1'): Obj {
  return { jsonrpc: '2.0', id, result: { protocolVersion: 'draft', effects } };
}

/** A capabilities response around `m` (default: a minimal valid manifest). */
export function capabilitiesResponse(m: Obj = structuredClone(manifest)): Obj {
  return { jsonrpc: '2.0', id: 'd1', result: { protocolVersion: 'draft', manifest: m } };
}

/** A minimal valid manifest (deep copy). */
export const minimalManifest = (): Obj => structuredClone(manifest);

/** A portable registration document with one HTTP and one stdio backend. */
export function registration(): Obj {
  return {
    protocolVersion: 'draft',
    hooks: [
      {
        id: 'com.example.policy',
        transport: { type: 'http', url: 'https://policy.example.com/hooks' },
        authentication: { type: 'bearer', tokenEnv: 'AHP_POLICY_TOKEN' },
        subscriptions: [
          {
            events: ['tool.before'],
            mode: 'intercept',
            timeoutMs: 750,
            failurePolicy: 'fail-closed',
            content: { default: 'metadata' },
          },
        ],
      },
      {
        id: 'com.example.local_review',
        transport: { type: 'stdio', command: 'local-review', args: ['serve'], lifecycle: 'persistent' },
        subscriptions: [{ events: ['tool.*'], mode: 'observe', content: { default: 'metadata', reasoning: 'omit' } }],
      },
    ],
  };
}
