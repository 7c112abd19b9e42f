/**
 * What an event type's name and a capture level say on their own: a leaf module, so that the event, the type table and
 * the capture tree all read it without importing one another.
 */
import type { AepCaptureLevel } from './schema/registry.ts';

/** Capture ranks, AEP-0001 §8.2: `none(0) < metadata(1) < redacted(2) < full(3)`. */
export const CAPTURE_RANK: Readonly<Record<AepCaptureLevel, number>> = { none: 0, metadata: 1, redacted: 2, full: 3 };

/** Scope class of a type, decided by its name (AEP-0001 §5.2; AEP-0004 §2.2; AEP-0002 §7.3). */
export type AepScope = 'session' | 'agent' | 'foreign';

const FOREIGN =
  /^(control\.attention\.respond|control\.cancel|control\.pause|control\.resume|x\.[a-z0-9_-]+\.control\..+|attention\.routed)$/;

// category agent, core or vendor (AEP-0001 §5.2 scopes by category; §6 puts it after `x.{vendor}.`)
const AGENT = /^(x\.[a-z0-9_-]+\.)?agent\./;

/** The scope class of `type`: category `agent` -> agent; commands and `attention.routed` -> foreign; else session. */
export function scopeOf(type: string): AepScope {
  if (AGENT.test(type)) return 'agent';
  return FOREIGN.test(type) ? 'foreign' : 'session';
}
