import { defineEventRule } from '../../core/engine.ts';
import { scopeOf, type AepEvent } from '../event.ts';

/** `aep://{host}/agent/{agent}` with an optional `/session/{session}` (segments percent-encoded). */
const FORM = /^aep:\/\/[^/?#]+\/agent\/([^/?#]+)(?:\/session\/([^/?#]+))?$/;

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** A warning under `--forms recommended` only: AEP-0001 §5.1 #6 RECOMMENDS the form (see `detail`). */
export const sourceForm = defineEventRule({
  id: 'aep/source-form',
  severity: 'warning',
  description:
    'With --forms recommended: source has the form AEP-0001 §5.1 #6 RECOMMENDS, aep://{host}/agent/{agent}/session/{session}.',
  detail:
    'Its agent segment is the envelope agent and, for a session-scoped event, its session segment the envelope session (an agent-scoped event may leave the session segment out; a command or attention.routed names its own emitter). Off by default: any URI is a valid source.',
  spec: 'AEP-0001 §5.1 #6',
  messages: {
    form: 'source is not of the form aep://HOST/agent/AGENT/session/SESSION that AEP-0001 §5.1 recommends.',
    agent:
      'source names another agent than the envelope agent {agent:json} in its agent segment (AEP-0001 §5.1 recommended form).',
    session:
      'source of a session-scoped event names no session, or another one than the envelope session, in its session segment (AEP-0001 §5.1 recommended form).',
  },
  check(ev: AepEvent, ctx) {
    const source = ev.value.source;
    if (typeof source !== 'string') return;
    const m = FORM.exec(source);
    if (!m) {
      ctx.report({ pointer: '/source', messageId: 'form' });
      return;
    }
    if ((ev.info?.scope ?? scopeOf(ev.type)) === 'foreign') return;
    const agent = ev.value.agent;
    if (typeof agent === 'string' && decoded(m[1]!) !== agent) {
      ctx.report({ pointer: '/source', messageId: 'agent', args: { agent } });
      return;
    }
    const session = ev.value.session;
    if (typeof session === 'string' && (m[2] === undefined || decoded(m[2]) !== session))
      ctx.report({ pointer: '/source', messageId: 'session' });
  },
});
