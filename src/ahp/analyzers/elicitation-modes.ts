/**
 * The elicitation modes the stream advertises (AHP interaction-payloads.md §MCP elicitation binding): those an
 * intercept request's capabilities grant, and those of the latest capabilities manifest, against which an event's mode
 * is judged.
 */
import type { Mark } from '../../core/mark.ts';
import { isObj, type Obj } from '../../core/value.ts';
import type { AhpMessage } from '../message.ts';
import type { ModeFacts } from './elicitation-facts.ts';

/** The modes a `capabilities.elicitation` object grants (`form` / `url` members that are objects). */
function grantedModes(el: unknown): string[] | undefined {
  if (!isObj(el)) return undefined;
  return ['form', 'url'].filter((m) => isObj(el[m]));
}

/** The advertised modes (see the module comment). */
export class ElicitationModes {
  private manifestModes = new Map<string, { modes: string[]; at: Mark }>();

  /** Remember the elicitation modes a capabilities manifest advertises (the latest manifest wins). */
  readManifest(manifest: Obj, at: Mark): void {
    if (!Array.isArray(manifest.events)) return;
    const modes = new Map<string, { modes: string[]; at: Mark }>();
    for (const e of manifest.events) {
      if (!isObj(e) || (e.event !== 'user.elicitation.request' && e.event !== 'user.elicitation.result')) continue;
      const granted = isObj(e.capabilities) ? grantedModes(e.capabilities.elicitation) : undefined;
      if (granted) modes.set(e.event, { modes: granted, at });
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
      const granted = isObj(caps) ? grantedModes(caps.elicitation) : undefined;
      if (granted && !granted.includes(mode)) return { mode, advertised: granted, by: 'request' };
    }
    const m = this.manifestModes.get(ev.type as string);
    if (m && !m.modes.includes(mode)) return { mode, advertised: m.modes, by: 'manifest', at: m.at };
    return undefined;
  }
}
