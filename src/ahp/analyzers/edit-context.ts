/**
 * The edit-context analyzer: the host context a request gives its response and the verdict of the response's effects in
 * it. Keeps nothing of its own (the context rides on the pending request); a released form makes the edit unverifiable,
 * not passed.
 */
import { checkEffects, type EffectsVerdict, type HostContext } from './effects.ts';
import type { AhpMessage } from '../message.ts';
import type { PendingRecord } from './correlation.ts';
import type { Elicitation } from './elicitation.ts';
import type { EventIdentity } from './identity.ts';
import { absentBody, type MessageScope } from './scope.ts';
import { isObj, own, type Obj } from '../../core/value.ts';

/**
 * Event type -> [modify target, event member holding its current list] (a Map: quicker than an object's miss); the
 * observations analyzer reads the same table.
 */
export const LIST_TARGETS: ReadonlyMap<string, readonly [string, string]> = new Map([
  ['tool.after', ['output', 'items']],
  ['turn.start', ['prompt', 'items']],
  ['turn.finish.before', ['response', 'items']],
  ['model.request.before', ['request', 'items']],
  ['model.response.after', ['response', 'items']],
  ['context.compact.before', ['instructions', 'instructions']],
  ['context.compact.after', ['summary', 'summary']],
] as const);

/** A matched intercept response's effects applied in its request's host context. */
export interface EffectsFacts {
  outcome: EffectsVerdict;
  list: unknown[];
  request: PendingRecord;
}

/** The effects and edit-context analyzer */
export class EditContext {
  constructor(
    private readonly identity: EventIdentity,
    private readonly elicitation: Elicitation,
  ) {}

  /** The host context of `ev` of `msg`, or undefined when the request's capabilities are unusable. */
  hostContext(msg: AhpMessage, ev: Obj, scope: MessageScope | undefined, rec: PendingRecord): HostContext | undefined {
    const params = msg.value.params as Obj;
    const caps = params.capabilities;
    if (!isObj(caps) || !Array.isArray(caps.effects)) return undefined;
    const type = ev.type as string;
    // every member made here (one object shape, no property array grown after it)
    const host: HostContext = {
      event: type,
      capabilities: caps,
      current: undefined,
      mode: undefined,
      action: undefined,
      selection: undefined,
      requestedSchema: undefined,
      elicitation: undefined,
    };
    const current: Record<string, unknown> = {};
    const message = isObj(ev.message) ? ev.message : undefined;
    // the current value of the event's one modify target (capability-auth.md §Event-semantic
    // capability bounds), so that every target gets the same edit checks
    const target = LIST_TARGETS.get(type);
    if (target && Array.isArray(ev[target[1]])) current[target[0]] = ev[target[1]];
    if ((type === 'tool.before' || type === 'tool.permission.request') && isObj(ev.tool) && isObj(ev.tool.input))
      current.input = ev.tool.input;
    if (type === 'workspace.change.before' && isObj(ev.workspace) && isObj(ev.workspace.change))
      current.workspace = ev.workspace.change;
    if (type === 'user.message.inbound' && message && Array.isArray(message.messages))
      current.prompt = message.messages;
    if (type === 'user.message.outbound' && message && Array.isArray(message.messages))
      current.content = message.messages;
    if (type === 'user.elicitation.request' && isObj(ev.elicitation)) {
      // what a supplied `return` answer must agree with: the normalized mode and the form
      const body = scope ? scope.body() : (msg.elicitation ?? absentBody(ev));
      if (body.status === 'parsed') {
        host.elicitation =
          body.value.mode === 'url' ? { mode: 'url' } : { mode: 'form', requestedSchema: body.value.requestedSchema };
      } else if (typeof ev.elicitation.mode === 'string') host.elicitation = { mode: ev.elicitation.mode };
    }
    if (type === 'user.elicitation.result' && isObj(ev.elicitation)) {
      const el = ev.elicitation;
      host.mode = typeof el.mode === 'string' ? el.mode : '';
      host.action = typeof el.action === 'string' ? el.action : '';
      const body = scope ? scope.body() : (msg.elicitation ?? absentBody(ev));
      if (body.status === 'parsed') {
        if (own(body.value, 'content')) current.content = body.value.content;
      } else {
        // the answer is not exposed: no part (omission), a metadata/omit view, or a gap; an
        // invalid body was reported by ahp/elicitation-body and is not judged again here
        const part = isObj(el.result) ? el.result : undefined;
        if (body.status !== 'invalid')
          host.selection = {
            content:
              body.status === 'absent' ? 'omit' : part && part.selection !== 'body' ? String(part.selection) : 'gap',
          };
      }
      const req = scope ? this.elicitation.parentRequest(scope) : this.elicitation.parentRequestOf(ev);
      if (req?.info.form === 'parsed') {
        if (req.info.released) rec.schemaReleased = this.identity.rows.markAt(req.slot);
        else host.requestedSchema = req.info.schema;
      }
    }
    host.current = current;
    return host;
  }

  /** The effects `list` of a response to `request` applied in its host context `host`. */
  judge(list: unknown[], request: PendingRecord, host: HostContext): EffectsFacts {
    return { outcome: checkEffects(list, host), list, request };
  }
}
