/**
 * The elicitation modes the stream advertises (AHP interaction-payloads.md §MCP elicitation binding): those an
 * intercept request's capabilities grant, and those of the latest capabilities manifest, against which an event's mode
 * is judged.
 */
import type { Mark } from '../../core/mark.ts';
import { isObj, type Obj } from '../../core/value.ts';
import type { AhpMessage } from '../message.ts';
import type { ModeFacts } from './elicitation-facts.ts';

/** The modes `capabilities.elicitation` grants (`form` / `url` objects; absent: none, as the schema says). */
function grantedModes(el: unknown): string[] | undefined {
  if (el === undefined) return [];
  if (!isObj(el)) return undefined;
  return ['form', 'url'].filter((m) => isObj(el[m]));
}

/** The advertised modes (see the module comment). */
export class ElicitationModes {
  private manifestModes = new Map<string, { modes: string[]; at: Mark; absent: boolean }>();

  /** Remember the elicitation modes a capabilities manifest advertises (the latest manifest wins). */
  readManifest(manifest: Obj, at: Mark): void {
    if (!Array.isArray(manifest.events)) return;
    const modes = new Map<string, { modes: string[]; at: Mark; absent: boolean }>();
    for (const e of manifest.events) {
      if (!isObj(e) || (e.event !== 'user.elicitation.request' && e.event !== 'user.elicitation.result')) continue;
      const el = isObj(e.capabilities) ? e.capabilities.elicitation : null;
      const granted = grantedModes(el);
      if (granted) modes.set(e.event, { modes: granted, at, absent: el === undefined });
    }
    this.manifestModes = modes;
  }

  /** An elicitation event whose mode the stream's advertisement does not grant. */
  factsOf(msg: AhpMessage, ev: Obj): ModeFacts | undefined {
    const el = isObj(ev.elicitation) ? ev.elicitation : undefined;
    const mode = el && typeof el.mode === 'string' ? el.mode : undefined;
    if (mode === undefined) return undefined;
    if (msg.kind === 'intercept-request') {
      const caps = isObj(msg.value.params) ? (msg.value.params as Obj).capabilities : undefined;
      const el = isObj(caps) ? caps.elicitation : null;
      const granted = grantedModes(el);
      if (granted && !granted.includes(mode))
        return { mode, advertised: granted, by: 'request', absent: el === undefined };
    }
    const m = this.manifestModes.get(ev.type as string);
    if (m && !m.modes.includes(mode)) return { mode, advertised: m.modes, by: 'manifest', at: m.at, absent: m.absent };
    return undefined;
  }
}
