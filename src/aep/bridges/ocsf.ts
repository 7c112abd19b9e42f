/**
 * The OCSF 1.8.0 projection (AEP-0005 §4), one-way (§4.4), for three families; at `capture: none` or above `maxCapture`
 * (default `metadata`) from the envelope alone (§4.6).
 */
import { CAPTURE_RANK } from '../event.ts';
import type { AepCaptureLevel } from '../schema/registry.ts';
import { nanosOf } from './otlp.ts';
import { isObj, type Obj } from '../../core/value.ts';
import type { AepSeverity } from './types.ts';

/** The pinned OCSF version (AEP-0005 §4.1). */
export const OCSF_VERSION = '1.8.0';

interface ClassRow {
  class: number;
  category: number;
  activity: number;
  status?: number;
  disposition?: number;
}

/** The §4.2 class mapping (dispositions other than the fixed ones are decided in §4.5). */
export const OCSF_CLASSES: Readonly<Record<string, ClassRow>> = {
  'session.started': { class: 3002, category: 3, activity: 1, status: 1 },
  'session.ended': { class: 3002, category: 3, activity: 2, status: 1 },
  'tool.requested': { class: 1007, category: 1, activity: 1 },
  'tool.completed': { class: 1007, category: 1, activity: 2, status: 1 },
  'tool.failed': { class: 1007, category: 1, activity: 2, status: 2 },
  'tool.denied': { class: 1007, category: 1, activity: 1, status: 2, disposition: 2 },
  'attention.requested': { class: 2004, category: 2, activity: 1, status: 1 },
  'attention.answered': { class: 2004, category: 2, activity: 2, status: 2 },
  'attention.resolved': { class: 2004, category: 2, activity: 3, status: 4 },
  'attention.timeout': { class: 2004, category: 2, activity: 3, disposition: 16 },
};

/** §4.4: AEP severity -> OCSF severity_id. */
export const OCSF_SEVERITY: Readonly<Record<AepSeverity, number>> = {
  debug: 1,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
};

/** Options of {@link toOcsf}. */
export interface OcsfOptions {
  /** The capture ceiling (AEP-0005 §4.6); default `metadata`. */
  maxCapture?: AepCaptureLevel;
}

/** The result of {@link toOcsf}. */
export interface OcsfProjection {
  /** The OCSF record, or `undefined` when the event's type has no OCSF class (§4.1). */
  record: Obj | undefined;
  /** True when the event had a payload that did not survive the ceiling. */
  withheld: boolean;
}

/** The authority of a URI (`aep://host-a/...` -> `host-a`), or `undefined` when it has none. */
function authorityOf(uri: string): string | undefined {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(uri);
  return m?.[1] ? m[1] : undefined;
}

/**
 * AEP-0005 §4.3: the OCSF record of one envelope-valid event, from the envelope and the capture-surviving payload.
 * Pure.
 */
export function toOcsf(event: Readonly<Obj>, opts: OcsfOptions = {}): OcsfProjection {
  const max = opts.maxCapture ?? 'metadata';
  const type = typeof event.type === 'string' ? event.type : '';
  const row = OCSF_CLASSES[type];
  const capture =
    typeof event.capture === 'string' && event.capture in CAPTURE_RANK
      ? (event.capture as AepCaptureLevel)
      : 'metadata';
  const survives = capture !== 'none' && CAPTURE_RANK[capture] <= CAPTURE_RANK[max];
  const data = isObj(event.data) ? event.data : undefined;
  const withheld = data !== undefined && !survives;
  if (!row) return { record: undefined, withheld };
  const payload = survives ? data : undefined;
  const str = (k: string) => (typeof event[k] === 'string' ? (event[k] as string) : undefined);
  const agent = str('agent');
  let disposition = row.disposition;
  // §4.5: a disposition only where the wire asserts the outcome
  if (type === 'attention.resolved' && payload?.resolution === 'dismissed') disposition = 16;
  const nanos = str('time') ? nanosOf(str('time')!) : undefined;
  const metadata: Obj = {
    version: OCSF_VERSION,
    uid: event.id,
    original_time: event.time,
    product: agent !== undefined ? { name: agent } : {},
  };
  if (event.cause !== undefined) metadata.correlation_uid = event.cause;
  if (disposition !== undefined) metadata.profiles = ['security_control'];
  const envelope: Obj = {};
  for (const [k, v] of Object.entries(event)) if (k !== 'data') envelope[k] = v;
  const unmapped: Obj = { aep: envelope };
  if (payload && Object.keys(payload).length > 0) unmapped.data = payload;
  const rec: Obj = {
    class_uid: row.class,
    category_uid: row.category,
    activity_id: row.activity,
    type_uid: row.class * 100 + row.activity,
    ...(nanos !== undefined ? { time: Number(nanos / 1_000_000n) } : {}),
    severity_id: OCSF_SEVERITY[(str('severity') ?? 'info') as AepSeverity] ?? 0,
    message: type,
    metadata,
    unmapped,
  };
  if (row.status !== undefined) rec.status_id = row.status;
  if (disposition !== undefined) rec.disposition_id = disposition;
  if (row.class === 3002) {
    rec.user = agent !== undefined ? { name: agent } : {};
    if (str('session') !== undefined) rec.session = { uid: str('session') };
  } else if (row.class === 1007) {
    rec.actor = agent !== undefined ? { app_name: agent } : {};
    const source = str('source');
    const host = source !== undefined ? authorityOf(source) : undefined;
    rec.device = {
      type_id: 0,
      ...(host !== undefined ? { hostname: host } : source !== undefined ? { name: source } : {}),
    };
    const process: Obj = {};
    if (str('subject') !== undefined) process.name = str('subject');
    const tool = payload && isObj(payload.tool) ? payload.tool : undefined;
    if (tool && typeof tool.call_id === 'string') process.uid = tool.call_id;
    rec.process = process;
  } else {
    const uid = type === 'attention.requested' ? event.id : event.subject;
    rec.finding_info = { ...(uid !== undefined ? { uid } : {}), title: type };
  }
  return { record: rec, withheld };
}
