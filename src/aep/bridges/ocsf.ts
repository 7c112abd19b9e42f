/**
 * The OCSF 1.8.0 projection (AEP-0005 §4), one-way (§4.4), for three families; at `capture: none` or above `maxCapture`
 * (default `metadata`) from the envelope alone (§4.6).
 */
import { CAPTURE_RANK } from '../event.ts';
import { defaultRedactor, screenMetadataLevel } from '../redact.ts';
import type { AepCaptureLevel } from '../schema/registry.ts';
import { nanosOf } from './otlp.ts';
import { assertAepEvent } from './hint.ts';
import { isObj, type Obj } from '../../core/value.ts';
import type { MessageArgs } from '../../core/message.ts';
import type { RuleMeta } from '../../core/rule.ts';
import { kindOf, type AepSeverity, type BridgeIssue, type DecodedEvent, type DecodeResult } from './types.ts';

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
 * AEP-0005 §4.3: the OCSF record of one envelope-valid event (envelope and capture-surviving payload). Pure.
 * @throws TypeError for bridge output or an AHP message (`aep/bridge-input`): no AEP event to project.
 */
export function toOcsf(input: Readonly<Obj>, opts: OcsfOptions = {}): OcsfProjection {
  assertAepEvent(input);
  const max = opts.maxCapture ?? 'metadata';
  const type = typeof input.type === 'string' ? input.type : '';
  const row = OCSF_CLASSES[type];
  const capture =
    typeof input.capture === 'string' && input.capture in CAPTURE_RANK
      ? (input.capture as AepCaptureLevel)
      : 'metadata';
  const survives = capture !== 'none' && CAPTURE_RANK[capture] <= CAPTURE_RANK[max];
  const data = isObj(input.data) ? input.data : undefined;
  const withheld = data !== undefined && !survives;
  if (!row) return { record: undefined, withheld };
  const payload = survives ? data : undefined;
  // a withheld record's envelope is screened as a down-leveled copy's (AEP-0003 §9 item 2)
  const event = survives ? input : screenMetadataLevel(input, undefined, defaultRedactor());
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

/** The OCSF rules of `aep validate --from ocsf` (AEP-0005 §4), reported by {@link decodeOcsf}. */
export const OCSF_RULES = {
  record: {
    id: 'aep/ocsf-record',
    severity: 'error',
    spec: 'AEP-0005 §4.3',
    description:
      'An OCSF record of the AEP projection is a JSON object carrying the complete AEP envelope in unmapped.aep and the capture-surviving payload, if any, in unmapped.data.',
    detail: 'Both members are objects; without the envelope the record is not mapped back or checked as AEP.',
    messages: {
      input: 'Input is {kind}, not an OCSF record object.',
      batch: 'Batch item is {kind}, not an OCSF record object.',
      carrier:
        'The record has no unmapped.aep object (found: {kind}); the AEP event cannot be recovered, so it is not checked as AEP.',
      data: 'unmapped.data is {kind}; it carries the capture-surviving payload, an object.',
    },
  },
  class: {
    id: 'aep/ocsf-class',
    severity: 'error',
    spec: 'AEP-0005 §4.1, §4.2',
    description:
      "Only the events of the §4.2 table project to OCSF, each with that table's class_uid, category_uid, activity_id and status_id.",
    detail:
      'The events: session.started/ended, tool.requested/completed/failed/denied and attention.requested/answered/resolved/timeout; no status_id where the table has none.',
    messages: {
      unprojected:
        'An OCSF record carries an AEP event of type {type}, which produces no OCSF record (only the session, tool and attention families of AEP-0005 §4.2 project).',
      member: '{member} is {found}; an event of type {type} projects with {member} {expected} (AEP-0005 §4.2).',
      absent: '{member} is {found}; the AEP-0005 §4.2 table gives an event of type {type} no {member}.',
    },
  },
  typeUid: {
    id: 'aep/ocsf-type-uid',
    severity: 'error',
    spec: 'AEP-0005 §4.2',
    description: 'type_uid is class_uid * 100 + activity_id.',
    messages: { uid: 'type_uid is {found}; class_uid {cls} and activity_id {activity} make it {expected}.' },
  },
  severity: {
    id: 'aep/ocsf-severity',
    severity: 'error',
    spec: 'AEP-0005 §4.4',
    description:
      'severity_id follows the AEP severity (absent: info): debug and info 1, notice 2, warning 3, error 4, critical 5.',
    messages: { severity: 'severity_id is {found}; AEP severity {severity} maps to {expected} (AEP-0005 §4.4).' },
  },
  disposition: {
    id: 'aep/ocsf-disposition',
    severity: 'error',
    spec: 'AEP-0005 §4.5, §4.3',
    description:
      'A disposition_id appears only where the AEP event asserts the outcome, with the value the projection gives it.',
    detail:
      'tool.denied 2 (Blocked), attention.timeout and an attention.resolved with resolution dismissed 16 (No Action); an answered attention.resolved and every other event carry none; a record with a disposition_id declares the security_control profile.',
    messages: {
      missing: 'An event of type {type}{why} projects with disposition_id {expected}; this record has none.',
      wrong: 'disposition_id is {found}; an event of type {type}{why} projects with disposition_id {expected}.',
      extra:
        'disposition_id is {found}; an event of type {type}{why} asserts no outcome, so its record carries no disposition_id (AEP-0005 §4.5).',
      profile:
        'The record asserts a disposition_id but metadata.profiles does not declare "security_control" (AEP-0005 §4.3).',
    },
  },
  derived: {
    id: 'aep/ocsf-derived',
    severity: 'error',
    spec: 'AEP-0005 §4.1-§4.3',
    description:
      'The members §4.3 derives from the envelope are as derived: metadata.version the pinned 1.8.0, message the event type, finding_info.uid the request id (§4.2).',
    detail:
      "finding_info.uid is the attention.requested event's own id, and its subject (the request id) on every later attention lifecycle event: one finding identity per lifecycle.",
    messages: {
      version: 'metadata.version is {found}; the projection targets OCSF version 1.8.0 (AEP-0005 §4.1, §4.3).',
      message:
        'message is not the event type {type} (found: {found}); the projection sets message := type (AEP-0005 §4.3).',
      uid: "finding_info.uid is not the {which} (found: {found}); every record of one attention lifecycle has the request's id (AEP-0005 §4.2).",
    },
  },
  capture: {
    id: 'aep/ocsf-capture',
    severity: 'error',
    spec: 'AEP-0005 §4.6, §3.3',
    description:
      "unmapped.data carries only the payload that survives the projection's max capture (default metadata): none for an event at capture none or above the ceiling.",
    messages: {
      none: 'unmapped.data carries a payload although the event is at capture none (AEP-0005 §4.6).',
      above:
        "unmapped.data carries a payload although the event's capture {capture} is above the max capture {max} (AEP-0005 §4.6: only what survives).",
    },
  },
} as const satisfies Record<string, RuleMeta>;

/** Options of {@link decodeOcsf}. */
export interface OcsfDecodeOptions {
  /** The projection's capture ceiling (AEP-0005 §4.6); default `metadata`. */
  maxCapture?: AepCaptureLevel;
}

/** A value as OCSF messages show it: a small integer as itself, anything else by its JSON type (never echoed). */
const shown = (v: unknown): string =>
  v === undefined ? 'absent' : Number.isSafeInteger(v) && Math.abs(v as number) < 1e9 ? String(v) : kindOf(v);

/** The AEP events of one `--from ocsf` value (a record or a batch; AEP-0005 §4), with the §4.2/§4.4/§4.5 issues. */
export function decodeOcsf(value: unknown, opts: OcsfDecodeOptions = {}): DecodeResult {
  const max = opts.maxCapture ?? 'metadata';
  const events: DecodedEvent[] = [];
  const issues: BridgeIssue[] = [];
  const R = OCSF_RULES;
  const issue = (rule: RuleMeta, pointer: string, messageId: string, args: MessageArgs = {}) =>
    issues.push({ ruleId: rule.id, pointer, messageId, args });
  const records: [unknown, string][] = Array.isArray(value) ? value.map((r, i) => [r, `/${i}`]) : [[value, '']];
  for (const [rec, base] of records) {
    if (!isObj(rec)) {
      issue(R.record, base, Array.isArray(value) ? 'batch' : 'input', { kind: kindOf(rec) });
      continue;
    }
    const unmapped = isObj(rec.unmapped) ? rec.unmapped : undefined;
    const env = unmapped && isObj(unmapped.aep) ? unmapped.aep : undefined;
    if (!env) {
      issue(R.record, `${base}/unmapped${unmapped ? '/aep' : ''}`, 'carrier', {
        kind: shown(unmapped ? unmapped.aep : rec.unmapped),
      });
      continue;
    }
    const data = unmapped!.data;
    if (data !== undefined && !isObj(data)) issue(R.record, `${base}/unmapped/data`, 'data', { kind: kindOf(data) });
    const type = typeof env.type === 'string' ? env.type : undefined;
    const row = type === undefined ? undefined : OCSF_CLASSES[type];
    if (type !== undefined && !row) issue(R.class, `${base}/unmapped/aep/type`, 'unprojected', { type });
    if (type !== undefined && row) checkRecord(rec, base, type, row, isObj(data) ? data : undefined, env, issue);
    const event: Obj = { ...env };
    delete event.data;
    const capture = typeof env.capture === 'string' && env.capture in CAPTURE_RANK ? env.capture : 'metadata';
    const survives = capture !== 'none' && CAPTURE_RANK[capture as AepCaptureLevel] <= CAPTURE_RANK[max];
    if (isObj(data)) {
      event.data = data;
      if (!survives) issue(R.capture, `${base}/unmapped/data`, capture === 'none' ? 'none' : 'above', { capture, max });
    } else if (data !== undefined || (!survives && capture !== 'none')) {
      // §4.6: a payload withheld at the ceiling is absent, not missing; an unusable one (reported above) is unknown
      event.capture = 'none';
    }
    const withheld =
      event.capture === 'none' && capture !== 'none' ? (capture as 'metadata' | 'redacted' | 'full') : undefined;
    events.push({
      event,
      base,
      ...(withheld ? { withheld } : {}),
      pointerOf: (p) =>
        p === '' ? base : p === '/data' || p.startsWith('/data/') ? `${base}/unmapped${p}` : `${base}/unmapped/aep${p}`,
    });
  }
  return { events, issues };
}

/** §4.2, §4.4, §4.5: the class members, type_uid, severity_id and disposition of one record of a projected type. */
function checkRecord(
  rec: Obj,
  base: string,
  type: string,
  row: ClassRow,
  data: Obj | undefined,
  env: Obj,
  issue: (rule: RuleMeta, pointer: string, messageId: string, args?: MessageArgs) => void,
): void {
  const R = OCSF_RULES;
  const want: [string, number | undefined][] = [
    ['class_uid', row.class],
    ['category_uid', row.category],
    ['activity_id', row.activity],
    ['status_id', row.status],
  ];
  for (const [member, expected] of want) {
    const found = rec[member];
    if (expected === undefined) {
      if (found !== undefined) issue(R.class, `${base}/${member}`, 'absent', { member, found: shown(found), type });
    } else if (found !== expected)
      issue(R.class, `${base}/${member}`, 'member', { member, found: shown(found), expected, type });
  }
  const cls = rec.class_uid;
  const activity = rec.activity_id;
  if (Number.isSafeInteger(cls) && Number.isSafeInteger(activity)) {
    const expected = (cls as number) * 100 + (activity as number);
    if (rec.type_uid !== expected)
      issue(R.typeUid, `${base}/type_uid`, 'uid', {
        found: shown(rec.type_uid),
        cls: shown(cls),
        activity: shown(activity),
        expected,
      });
  }
  const md = isObj(rec.metadata) ? rec.metadata : undefined;
  if (md?.version !== OCSF_VERSION) {
    const v = md?.version;
    const found = typeof v === 'string' && /^\d{1,3}(\.\d{1,3}){1,2}$/.test(v) ? `"${v}"` : shown(v);
    issue(R.derived, md ? `${base}/metadata${v !== undefined ? '/version' : ''}` : base, 'version', { found });
  }
  if (rec.message !== type)
    issue(R.derived, rec.message === undefined ? base : `${base}/message`, 'message', {
      found: shown(rec.message),
      type,
    });
  const uid = type === 'attention.requested' ? env.id : env.subject;
  const fi = isObj(rec.finding_info) ? rec.finding_info : undefined;
  if (row.class === 2004 && typeof uid === 'string' && fi?.uid !== uid)
    issue(R.derived, fi ? `${base}/finding_info${fi.uid !== undefined ? '/uid' : ''}` : base, 'uid', {
      found: fi?.uid === undefined ? 'absent' : kindOf(fi.uid),
      which: type === 'attention.requested' ? "request's own id" : "event's subject (the request id)",
    });
  const sev = env.severity === undefined ? 'info' : env.severity;
  const sevId = typeof sev === 'string' ? OCSF_SEVERITY[sev as AepSeverity] : undefined;
  // an unknown severity is the envelope's finding (aep/enum), not the projection's
  if (sevId !== undefined && rec.severity_id !== sevId)
    issue(R.severity, `${base}/severity_id`, 'severity', {
      found: shown(rec.severity_id),
      severity: sev as string,
      expected: sevId,
    });
  let expected = row.disposition;
  let why = '';
  if (type === 'attention.resolved') {
    const resolution = data?.resolution;
    // a payload withheld at the ceiling leaves the resolution, and so the disposition, unknown
    if (typeof resolution !== 'string') {
      checkProfile(rec, base, issue);
      return;
    }
    why =
      resolution === 'dismissed' || resolution === 'answered'
        ? ` with resolution "${resolution}"`
        : ' with a resolution other than "dismissed"';
    if (resolution === 'dismissed') expected = 16;
  }
  const found = rec.disposition_id;
  if (expected === undefined) {
    if (found !== undefined)
      issue(R.disposition, `${base}/disposition_id`, 'extra', { found: shown(found), type, why });
  } else if (found === undefined) issue(R.disposition, base, 'missing', { type, why, expected });
  else if (found !== expected)
    issue(R.disposition, `${base}/disposition_id`, 'wrong', { found: shown(found), type, why, expected });
  checkProfile(rec, base, issue);
}

/** §4.3: a record asserting a disposition_id declares the security_control profile. */
function checkProfile(
  rec: Obj,
  base: string,
  issue: (rule: RuleMeta, pointer: string, messageId: string, args?: MessageArgs) => void,
): void {
  if (rec.disposition_id === undefined) return;
  const md = isObj(rec.metadata) ? rec.metadata : undefined;
  const profiles = md?.profiles;
  if (!Array.isArray(profiles) || !profiles.includes('security_control'))
    issue(OCSF_RULES.disposition, `${base}/metadata${md ? '/profiles' : ''}`, 'profile');
}
