import { markLocation, mayFollow } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/**
 * `ahp/manifest-unverifiable`: ahp/advertisement-exceeds-manifest and ahp/elicitation-mode-not-advertised (by the
 * manifest) when a line after that manifest gave no message (README §Decisions on unreadable lines).
 */
export const manifestUnverifiable = defineAhpStreamRule({
  id: 'ahp/manifest-unverifiable',
  severity: 'info',
  description:
    'A message claims more than the last capabilities manifest of the input grants, but a line after that manifest gave no AHP message and may have held a newer one (not verified).',
  detail:
    'A line gives no message when it is unreadable (invalid JSON, over --max-line-bytes, too deep, not an object, invalid UTF-8, a cut gzip stream) or its JSON-RPC shape is invalid. Only a line after the manifest counts: an earlier one cannot replace it. It replaces ahp/advertisement-exceeds-manifest and ahp/elicitation-mode-not-advertised judged by the manifest.',
  spec: 'AHP capability-auth.md §Discovery and honest capabilities',
  messages: {
    advertisement:
      'This request advertises more than the capabilities manifest at {manifest} grants, but {unreadable} could not be read as an AHP message and may have held a newer manifest; not verified.',
    mode: 'Elicitation mode {mode:json} is not in the capabilities manifest at {manifest}, but {unreadable} could not be read as an AHP message and may have held a newer manifest; not verified.',
  },
  on: ['advertisement', 'mode'],
  onEvent(facts, ctx, state) {
    const u = state.unreadable;
    if (!u) return;
    const unreadable = markLocation(u);
    const a = facts.advertisement;
    if (a?.manifest !== undefined && a.issues.length > 0 && mayFollow(u, a.manifest)) {
      const manifest = markLocation(a.manifest);
      ctx.report({
        pointer: '/params/capabilities',
        messageId: 'advertisement',
        args: { manifest, unreadable },
        related: [unreadable, manifest],
      });
    }
    const m = facts.event?.mode;
    if (m?.by === 'manifest' && mayFollow(u, m.at!)) {
      const manifest = markLocation(m.at!);
      ctx.report({
        pointer: '/params/event/elicitation/mode',
        messageId: 'mode',
        args: { mode: m.mode, manifest, unreadable },
        related: [unreadable, manifest],
      });
    }
  },
});
