/**
 * The ordering analyzer (AEP-0001 §7.2-§7.3): each seq-bearing event against its session's `(epoch, seq)` high-water
 * mark, exactly; an absent `epoch` is 0.
 */
import type { Mark } from '../../core/mark.ts';
import type { AepEvent } from '../event.ts';
import type { IdentityFacts } from './identity-facts.ts';
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
   * Compare the event's position with its session's high-water mark; raise the mark, except for an event under an
   * earlier event's `(source, id)` (a collision, or a copy that could not be compared): a consumer deduplicating by
   * `(source, id)` (AEP-0001 §7.4) drops it, so its `seq` is no position of the session, and the next event in the
   * emitter's own numbering is not blamed for it (README §AEP-0004 decisions: an ack re-emitted with a new `seq`).
   */
  observe(
    ev: AepEvent,
    facts: OrderFacts &
      Pick<LifecycleFacts, 'session' | 'seq' | 'epoch' | 'seqC' | 'epochC'> &
      Pick<IdentityFacts, 'collision' | 'unverifiable'> & { at: Mark },
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
    else if (facts.collision === undefined && facts.unverifiable === undefined) {
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
