/**
 * The `aep live` rules of what a subscription selects and down-levels (AEP-0003 §6.2, §6.4), over each consuming
 * binding offered (checked by src/live/filter-checks.ts); rules.ts places them in check order.
 */
import type { LiveRule } from './rule-types.ts';

/** AEP-0003 §6.2: attr-match delivers exactly what it selects, and fails closed on a key that is not filterable. */
export const FILTER_RULE: LiveRule = {
  id: 'aep/live-filter',
  severity: 'error',
  description:
    'A subscription with an attr-match filter receives exactly the Events that match it; a filter naming a key that is not filterable (`data`) is refused invalid-filter.',
  detail:
    'The filters tried: a type, and a severity comparison {"gte": "warning"} by the AEP-0001 §8.1 order (an absent severity is "info", AEP-0003 §6.2 rule 5), each over every consuming binding the discovery document names (AEP-0003 §1: attr-match on each consuming binding supported): SSE `filter` (§3.3 #1) and the WebSocket subscribe `filter` (§6.5). The filter naming `data` is sent as a WebSocket subscribe, or over SSE where no socket is named (any answer but a stream refuses it).',
  spec: 'AEP-0003 §6.2; §1; §3.3 #1; §6.5; AEP-0001 §8.1',
  messages: {
    failOpen:
      'A WebSocket subscribe whose filter names "data" (not filterable) was answered {got}, not an error frame with code "invalid-filter" (fail closed).',
    sseFailOpen:
      'GET {path} with a filter naming "data" (not filterable) was answered {got}, not refused (fail closed).',
    refused: 'A WebSocket subscribe {what} was answered {got}, not subscribed.',
    extra: 'A subscriber over {binding} with filter {"type":"{type}"} received a {got} Event.',
    missing: 'A subscriber over {binding} with filter {"type":"{type}"} did not receive the matching Event.',
    severityExtra:
      'A subscriber over {binding} with filter {"severity":{"gte":"warning"}} received an Event of severity {severity}.',
    severityMissing:
      'A subscriber over {binding} with filter {"severity":{"gte":"warning"}} did not receive an Event of severity {severity} (AEP-0001 §8.1 order: debug < info < notice < warning < error < critical).',
  },
};

/** AEP-0003 §6.4: a subscription's capture ceiling down-levels what it delivers, never up. */
export const CAPTURE_CEILING_RULE: LiveRule = {
  id: 'aep/live-capture-ceiling',
  severity: 'error',
  description:
    'A subscription with a capture ceiling receives Events down-leveled to it per AEP-0001 §8.2, never above it.',
  detail:
    'Over every consuming binding the discovery document names: the SSE `capture` parameter (AEP-0003 §3.3 #1) and the WebSocket subscribe `capture` member (§6.5).',
  spec: 'AEP-0003 §6.4; §3.3 #1; §6.5; AEP-0001 §8.2',
  messages: {
    above: 'A subscriber over {binding} with capture={ceiling} received an Event at capture {got}.',
    payload:
      'A subscriber over {binding} with capture={ceiling} received the {type} Event (posted at capture {posted}) other than its §8.2 down-level: at {pointer} the down-level has {want}, the delivered Event has {got}.',
    missing: 'A subscriber over {binding} with capture={ceiling} received no Event.',
    refused: 'A WebSocket subscribe {what} was answered {got}, not subscribed.',
  },
};
