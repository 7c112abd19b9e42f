/**
 * Hand-written vectors for what the upstream corpus does not pin: formats, scoping corners,
 * and the payload constraints we wrote from the prose (AEP-0001 §5, AEP-0002 §5, AEP-0004,
 * AEP-0006, AEP-0009). Independent of the shared corpus.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileAll, showErrors } from './helpers.ts';

const c = compileAll();

const base = {
  aep: '0.1',
  id: 'e1',
  time: '2026-07-03T10:15:04.221Z',
  source: 'aep://host-a/agent/claude-code/session/s_1',
  agent: 'claude-code',
};
const sess = { ...base, type: 'run.started', session: 's_1', seq: 0 };

function envelopeOk(ev: unknown): void {
  assert.equal(c.envelope(ev), true, showErrors(c.envelope.errors));
}
function envelopeBad(ev: unknown, path: string): void {
  assert.equal(c.envelope(ev), false, 'the envelope schema accepted it');
  const paths = (c.envelope.errors ?? []).map((e) => e.instancePath);
  assert.ok(paths.includes(path), `no error at "${path}": ${showErrors(c.envelope.errors)}`);
}
function payloadOk(type: string, data: unknown): void {
  const v = c.payload(type)!;
  assert.equal(v(data), true, `${type}: ${showErrors(v.errors)}`);
}
function payloadBad(type: string, data: unknown, path: string): void {
  const v = c.payload(type)!;
  assert.equal(v(data), false, `${type}: the payload schema accepted ${JSON.stringify(data)}`);
  const paths = (v.errors ?? []).map((e) => e.instancePath);
  assert.ok(paths.includes(path), `${type}: no error at "${path}": ${showErrors(v.errors)}`);
}

test('envelope: formats (AEP-0001 §5.1 #5, #6)', () => {
  envelopeOk(sess);
  envelopeOk({ ...sess, time: '2026-07-03T12:15:04+02:00' });
  envelopeBad({ ...sess, time: '2026-07-03T10:15:04' }, '/time'); // no timezone
  envelopeBad({ ...sess, time: 'yesterday' }, '/time');
  envelopeBad({ ...sess, source: 'host-a/agent' }, '/source'); // no scheme
  envelopeBad({ ...sess, source: '' }, '/source');
});

test('envelope: required attributes, non-empty strings, no nulls (AEP-0001 §5.1)', () => {
  for (const k of ['aep', 'id', 'type', 'time', 'source', 'agent'] as const) {
    const ev: Record<string, unknown> = { ...sess };
    delete ev[k];
    envelopeBad(ev, '');
  }
  envelopeBad({ ...sess, id: '' }, '/id');
  envelopeBad({ ...sess, agent: '' }, '/agent');
  envelopeBad({ ...sess, run: null }, '/run');
  envelopeBad({ ...sess, subject: '' }, '/subject');
  envelopeBad({ ...sess, epoch: -1 }, '/epoch');
  envelopeBad({ ...sess, seq: 1.5 }, '/seq');
  envelopeBad({ ...sess, capture: 'secret' }, '/capture');
  envelopeBad({ ...sess, data: [] }, '/data');
  envelopeBad({ ...sess, data: 'x' }, '/data');
  envelopeBad([sess], '');
  envelopeOk({
    ...sess,
    run: 'r',
    step: 's',
    epoch: 3,
    cause: 'e0',
    subject: 'Bash',
    severity: 'critical',
    capture: 'full',
    data: {},
  });
});

test('envelope: extension attributes (AEP-0001 §5.4)', () => {
  envelopeOk({ ...sess, acmeregion: 'eu-1', acmeretries: 3, acmeflag: true, a1234567890123456789: 'x' });
  envelopeBad({ ...sess, acmeratio: 0.5 }, '/acmeratio');
  envelopeBad({ ...sess, acmelist: ['a'] }, '/acmelist');
  envelopeBad({ ...sess, acmenull: null }, '/acmenull');
  envelopeBad({ ...sess, AcmeRegion: 'x' }, '');
  envelopeBad({ ...sess, 'acme-region': 'x' }, '');
  envelopeBad({ ...sess, a12345678901234567890: 'x' }, ''); // 21 chars
});

test('envelope: type grammar (AEP-0001 §6, AEP-0002 §3)', () => {
  for (const type of [
    'tool.completed',
    'run.step.started',
    'progress.some_future_member',
    'x.claude-code.session.config_change',
    'x.acme_corp.tool.ran',
    'x.acme.otel.session.start',
  ]) {
    envelopeOk({ ...sess, type });
  }
  for (const type of [
    'tool',
    'stream.delta',
    'x.acme.foo',
    'x.Acme.tool.ran',
    'tool.',
    '.tool.completed',
    'tool..completed',
    'tool.completed.',
    'x.acme.tool-x.ran',
  ]) {
    envelopeBad({ ...sess, type }, '/type');
  }
});

test('envelope: scoping (AEP-0001 §5.2, AEP-0004 §2.2, AEP-0002 §7.3)', () => {
  const agentEv = { ...base, type: 'agent.heartbeat' };
  envelopeOk(agentEv);
  envelopeOk({ ...agentEv, epoch: 2 }); // epoch is not forbidden
  envelopeBad({ ...agentEv, run: 'r' }, '/run');
  envelopeBad({ ...agentEv, step: 's' }, '/step');
  for (const type of [
    'control.attention.respond',
    'control.cancel',
    'control.pause',
    'control.resume',
    'attention.routed',
    'x.acme.control.reboot',
    'x.acme.control.deploy.now',
  ]) {
    envelopeOk({ ...base, type, session: 's_1', run: 'r', epoch: 0 });
    envelopeBad({ ...base, type, session: 's_1', seq: 1 }, '/seq');
    envelopeBad({ ...base, type }, '');
  }
  // acks are emitted by the target in its own session: ordinary session-scoped events
  for (const type of [
    'control.accepted',
    'control.rejected',
    'control.foo',
    'x.acme.tool.ran',
    'message.user.submitted',
  ]) {
    envelopeOk({ ...base, type, session: 's_1', seq: 1 });
    envelopeBad({ ...base, type, session: 's_1' }, '');
    envelopeBad({ ...base, type, seq: 1 }, '');
  }
});

test('payloads are open: unknown members are accepted (AEP-0002 §5.4)', () => {
  payloadOk('session.started', { trigger: 'startup', client: { name: 'codex', build: 7 }, vendorthing: { a: [1] } });
  payloadOk('run.finished', { cost: { currency: 'USD', total: 0.1, vendor_fee: 0.01 } });
  payloadOk('control.accepted', {});
  payloadOk('control.pause', { vendor: true });
});

test('common objects: tool_ref, error_info, cost, usage (AEP-0002 §5.2)', () => {
  payloadOk('tool.requested', { tool: { name: 'Bash' }, args: { cmd: 'ls' }, args_redacted: {} });
  payloadBad('tool.requested', {}, '');
  payloadBad('tool.requested', { tool: { call_id: 't1' } }, '/tool');
  payloadBad('tool.requested', { tool: { name: 'Bash' }, args: 'ls' }, '/args');
  payloadOk('tool.completed', { tool: { name: 'Bash' }, result: 'ok', result_redacted: { lines: 3 } });
  payloadBad('tool.completed', { tool: { name: 'Bash' }, result: 3 }, '/result');
  payloadBad('tool.failed', { tool: { name: 'Bash' } }, '');
  payloadBad('tool.failed', { tool: { name: 'Bash' }, error: { message: 7 } }, '/error/message');
  payloadBad('run.started', { cost: { currency: 'USD', total: -1 } }, '/cost/total');
  payloadBad('tool.completed', { tool: { name: 'x' }, cost: { currency: 'USD', reasoning: '1' } }, '/cost/reasoning');
  payloadBad('run.finished', { 'gen_ai.usage.input_tokens': -3 }, '/gen_ai.usage.input_tokens');
  payloadBad('run.finished', { 'gen_ai.usage.output_tokens': 2.5 }, '/gen_ai.usage.output_tokens');
  payloadBad('run.failed', {}, '');
  payloadBad('tool.denied', { tool: { name: 'Bash' }, by: 'human' }, '/by');
  payloadBad('session.ended', { reason: 'crashed' }, '/reason');
  payloadBad('run.cancelled', { by: 'god' }, '/by');
  payloadBad('run.started', { trigger: 'cron' }, '/trigger');
  payloadBad('session.started', { parent: { run: 'r' } }, '/parent');
  payloadBad('session.started', { client: { version: '1' } }, '/client');
});

test('attention.requested: kind, options, respond_via, expires_at (AEP-0002 §5.3, AEP-0006)', () => {
  for (const kind of ['permission', 'input', 'auth', 'review', 'form', 'other'])
    payloadOk('attention.requested', { kind, prompt: 'p' });
  payloadBad('attention.requested', { kind: 'question', prompt: 'p' }, '/kind');
  payloadBad('attention.requested', { kind: 'input' }, '');
  payloadBad('attention.requested', { prompt: 'p' }, '');
  payloadBad('attention.requested', { kind: 'permission', prompt: 'p', options: [{ id: 'allow' }] }, '/options/0');
  payloadBad('attention.requested', { kind: 'permission', prompt: 'p', respond_via: ['email'] }, '/respond_via/0');
  payloadOk('attention.requested', {
    kind: 'permission',
    prompt: 'p',
    respond_via: ['control', 'oob'],
    expires_at: '2026-07-03T10:20:00Z',
    context: { a: 1 },
  });
  payloadBad('attention.requested', { kind: 'permission', prompt: 'p', expires_at: 'soon' }, '/expires_at');
});

test('field_spec (AEP-0002 §5.2, AEP-0006)', () => {
  const form = (fields: unknown[]) => ({ kind: 'form', prompt: 'p', fields });
  payloadOk(
    'attention.requested',
    form([
      { id: 'name', type: 'string', label: 'Name', required: true },
      { id: 'n', type: 'number', label: 'N', min: -1.5, max: 10 },
      { id: 'ok', type: 'boolean', label: 'OK' },
      { id: 'db', type: 'select', label: 'DB', other: true, multi: false, choices: [{ id: '1', label: 'PostgreSQL' }] },
    ]),
  );
  payloadBad('attention.requested', form([{ id: 'x', type: 'date', label: 'X' }]), '/fields/0/type');
  payloadBad('attention.requested', form([{ type: 'string', label: 'X' }]), '/fields/0');
  payloadBad('attention.requested', form([{ id: 'x', type: 'string' }]), '/fields/0');
  payloadBad('attention.requested', form([{ id: 'x', type: 'select', label: 'X' }]), '/fields/0');
  payloadBad(
    'attention.requested',
    form([{ id: 'x', type: 'select', label: 'X', choices: [{ id: '1' }] }]),
    '/fields/0/choices/0',
  );
  payloadBad(
    'attention.requested',
    form([{ id: 'x', type: 'string', label: 'X', required: 'yes' }]),
    '/fields/0/required',
  );
  payloadBad(
    'attention.requested',
    form([{ id: 'x', type: 'select', label: 'X', choices: [], multi: 1 }]),
    '/fields/0/multi',
  );
  payloadBad('attention.requested', form([{ id: 'x', type: 'number', label: 'X', min: '0' }]), '/fields/0/min');
});

test('answer and answer.values (AEP-0002 §5.3, AEP-0004 §5, AEP-0006)', () => {
  const values = { name: 'billing-api', staged: true, replicas: 3, regions: ['1', '3'], db: 'MariaDB' };
  for (const type of ['attention.answered', 'control.attention.respond']) {
    payloadOk(type, { answer: { values } });
    payloadOk(type, { answer: { option: 'allow' } });
    payloadOk(type, { answer: {} });
    payloadBad(type, {}, '');
    payloadBad(type, { answer: { values: [1] } }, '/answer/values');
    // entry shapes are prose only (AEP-0006); the registry's values is a bare object, so the
    // schema accepts them and aep/registry-prose-conflict names the conflict
    payloadOk(type, { answer: { values: { a: { nested: 1 } } } });
    payloadOk(type, { answer: { values: { a: [1] } } });
    payloadOk(type, { answer: { values: { a: null } } });
    payloadBad(type, { answer: { text: 5 } }, '/answer/text');
  }
  payloadBad('attention.answered', { answer: {}, via: 'email' }, '/via');
  payloadBad('attention.resolved', {}, '');
  payloadBad('attention.resolved', { resolution: 'closed' }, '/resolution');
});

test('control payloads (AEP-0004 §3, §5)', () => {
  for (const reason of ['unsupported', 'unauthorized', 'busy', 'refused', 'invalid'])
    payloadOk('control.rejected', { reason });
  payloadBad('control.rejected', { reason: 'timeout' }, '/reason');
  payloadBad('control.rejected', {}, '');
  payloadOk('control.cancel', { scope: 'run', reason: 'stuck' });
  payloadBad('control.cancel', { scope: 'turn' }, '/scope');
  payloadBad('control.cancel', {}, '');
});

test('optional types (AEP-0002 §5.4)', () => {
  payloadBad('progress.status', { percent: 101 }, '/percent');
  payloadBad('progress.status', { percent: -1 }, '/percent');
  payloadOk('progress.status', { percent: 12.5 });
  payloadBad('progress.artifact.produced', { artifact: { bytes: -1 } }, '/artifact/bytes');
  payloadBad('agent.heartbeat', { tick: -1 }, '/tick');
  payloadBad('state.snapshot', { state: [1] }, '/state');
  payloadOk('state.delta', { key: 'plan', rev: 2, delta: [{ op: 'replace', path: '/done', value: 3 }] });
  payloadBad('state.delta', { delta: ['replace /done'] }, '/delta/0');
  payloadBad('error.raised', { fatal: 'no' }, '/fatal');
  payloadOk('resource.retrieval.returned', { documents: [{ id: 'd', score: -0.3, metadata: { rank: 1 } }], count: 1 });
  payloadBad('resource.retrieval.returned', { documents: [{ content: 3 }] }, '/documents/0/content');
  payloadOk('resource.citation.recorded', {
    citations: [{ source: { id: 'd' }, offset: { page: { page: 3, start: 0, end: 9 } }, document_index: 0 }],
  });
  // source REQ and offset bounds are not in the registry: no schema error (aep/registry-prose-conflict; no minimum in either)
  payloadOk('resource.citation.recorded', { citations: [{ cited_text: 'x' }] });
  payloadOk('resource.citation.recorded', { citations: [{ source: {}, offset: { char: { start: -1 } } }] });
  // AEP-0002 §5.2: at most one offset variant populated
  payloadOk('resource.citation.recorded', {
    citations: [{ source: {}, offset: { block: { block: 2 }, vendorhint: 1 } }],
  });
  payloadBad(
    'resource.citation.recorded',
    { citations: [{ source: {}, offset: { char: {}, block: {} } }] },
    '/citations/0/offset',
  );
  // AEP-0002 §5.2 cost: ISO 4217 alphabetic code
  for (const type of ['run.started', 'run.finished']) {
    payloadOk(type, { cost: { currency: 'USD' } });
    for (const currency of ['usd', 'US', 'USDX', 'U5D']) payloadBad(type, { cost: { currency } }, '/cost/currency');
  }
});

test('assessment payloads (AEP-0009 §3, §4, §6)', () => {
  payloadOk('assessment.evaluation.recorded', {
    'gen_ai.evaluation.score.value': -42.5,
    'gen_ai.evaluation.score.label': 'fail',
  });
  payloadBad(
    'assessment.evaluation.recorded',
    { 'gen_ai.evaluation.score.value': 'high' },
    '/gen_ai.evaluation.score.value',
  );
  payloadOk('assessment.feedback.received', { rating: -1, label: 'thumbs_down', source: 'human' });
  payloadOk('assessment.guardrail.recorded', {
    guardrail: { stage: 'input', verdict: 'flagged', categories: [{ name: 'jailbreak' }] },
  });
  payloadBad('assessment.guardrail.recorded', { guardrail: { verdict: 'denied' } }, '/guardrail/verdict');
  payloadBad('assessment.guardrail.recorded', { guardrail: { stage: 'tool' } }, '/guardrail/stage');
  // name REQ is prose only (aep/registry-prose-conflict)
  payloadOk('assessment.guardrail.recorded', { guardrail: { categories: [{ score: 0.3 }] } });
});
