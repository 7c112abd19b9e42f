import { defineAhpStreamRule } from '../analyzers/model.ts';

/**
 * `ahp/manifest-limit-unexplained`: a `gaps` entry explains a limit when its path is `limits` or `limits.<name>` (the
 * dotted field paths of the draft's gaps; a JSON pointer `/limits/<name>` is read the same).
 */
export const manifestLimitUnexplained = defineAhpStreamRule({
  id: 'ahp/manifest-limit-unexplained',
  severity: 'error',
  description: 'A capabilities manifest states each recognized limit in `limits` or explains its absence in `gaps`.',
  detail:
    'The recognized limits: `maxUploadBytes`, `maxContinuations`, `minTimeoutMs`, `maxTimeoutMs`; a gap has path `limits` or `limits.<name>`. An unknown limit remains absent and is explained, absence never means unlimited. Judged on a `hooks/capabilities` result and on the manifest a `session.start` carries (its first delivery).',
  spec: 'AHP capability-auth.md §Discovery and honest capabilities',
  quote: 'Unknown limits remain absent and MUST be explained in `gaps`; absence never means unlimited',
  messages: {
    one: 'The manifest states no `{name}` limit and no `gaps` entry explains it; an unknown limit is explained in `gaps`, absence never means unlimited.',
  },
  on: ['manifest'],
  onEvent(facts, ctx) {
    const m = facts.manifest;
    if (!m) return;
    for (const name of m.unexplained) ctx.report({ pointer: `${m.pointer}/limits`, args: { name } });
  },
});
