/**
 * The ordering analyzer (AEP-0001 §7.2-§7.3): each seq-bearing event against its session's `(epoch, seq)` high-water
 * mark, exactly; an absent `epoch` is 0.
 */
import type { Mark } from '../../core/mark.ts';
import type { AepEvent } from '../event.ts';
import type { LifecycleFacts } from './lifecycle.ts';

/** A position at or below the session's high-water mark. */
export interface OrderRegression {
  kind: 'epoch' | 'seq';
  epoch: bigint;
  seq: bigint;
  prev: { epoch: bigint; seq: bigint; at: Mark };
}

/** What the ordering analyzer found about one event. */
export interface OrderFacts {
  order?: OrderRegression;
}

/** `(epoch, seq)` ordering per emitter session. */
export class OrderingAnalyzer {
  /**
   * Compare the event's position with its session's high-water mark and raise the mark. An event under an earlier
   * event's `(source, id)` never comes here (model.ts): a consumer deduplicating by `(source, id)` (AEP-0001 §7.4)
   * drops it, so its `seq` is no position of the session.
   */
  observe(
    ev: AepEvent,
    facts: OrderFacts & Pick<LifecycleFacts, 'session' | 'seq' | 'epoch' | 'seqC' | 'epochC'> & { at: Mark },
  ): void {
    const rec = facts.session;
    if (!rec) return;
    const sc = facts.seqC!;
    const ec = facts.epochC ?? 0;
    const had = rec.hasPos;
    if (had && ec < rec.posEc)
      facts.order = { kind: 'epoch', epoch: facts.epoch ?? 0n, seq: facts.seq!, prev: rec.pos! };
    else if (had && ec === rec.posEc && sc <= rec.posSc)
      facts.order = { kind: 'seq', epoch: facts.epoch ?? 0n, seq: facts.seq!, prev: rec.pos! };
    else {
      rec.posEpoch = facts.epoch ?? 0n;
      rec.posSeq = facts.seq!;
      rec.posEc = ec;
      rec.posSc = sc;
      rec.hasPos = true;
      rec.posFile = ev.source;
      rec.posLine = ev.line;
      rec.posByte = ev.byteOffset ?? NaN;
    }
  }
}
