/**
 * The bridge rules of `aep validate --from cloudevents|otlp` (AEP-0005 §1-§3; CloudEvents 1.0;
 * OTLP/JSON): the checks a CE object or an OTLP `ExportLogsServiceRequest` gets before the
 * events it maps back to are checked as AEP. Reported by src/aep/bridges/decode-*.ts.
 */
import type { RuleMeta } from '../../core/rule.ts';

const ce = (name: string, severity: RuleMeta['severity'], spec: string, description: string): RuleMeta => ({
  id: `aep/ce-${name}`,
  severity,
  spec,
  description,
});
const otlp = (name: string, severity: RuleMeta['severity'], spec: string, description: string): RuleMeta => ({
  id: `aep/otlp-${name}`,
  severity,
  spec,
  description,
});

/** The CloudEvents bridge rules, by short name. */
export const CE_RULES = {
  notObject: ce(
    'not-object',
    'error',
    'CloudEvents 1.0 JSON format §3, §4',
    'A CloudEvents input is one JSON object, or a batch: a JSON array whose items are all objects.',
  ),
  required: ce(
    'required',
    'error',
    'CloudEvents 1.0 §3.1',
    'The REQUIRED context attributes id, source, specversion and type are present (not null).',
  ),
  specversion: ce('specversion', 'error', 'CloudEvents 1.0 §3.1; AEP-0005 §1 B1', 'specversion is "1.0".'),
  attributeType: ce(
    'attribute-type',
    'error',
    'CloudEvents 1.0 §3.1-§3.2',
    'Every context attribute has a CloudEvents type: id, source, type and subject non-empty strings, time an RFC 3339 timestamp, datacontenttype a string, extension values strings, booleans or integers within the signed 32-bit range.',
  ),
  attributeName: ce(
    'attribute-name',
    'error',
    'CloudEvents 1.0 §3.1.1',
    'Context attribute names consist of lower-case ASCII letters and digits only.',
  ),
  data: ce(
    'data',
    'error',
    'AEP-0005 §1 B2; CloudEvents 1.0 JSON format §3.1',
    'The AEP payload crosses as the JSON member data; a data_base64 member cannot carry an AEP payload.',
  ),
  datacontenttype: ce(
    'datacontenttype',
    'error',
    'AEP-0005 §1 B1',
    'datacontenttype is "application/json" exactly when data is present, and absent when it is not (the B1 constant is not materialised).',
  ),
  foreignType: ce(
    'foreign-type',
    'warning',
    'AEP-0005 §2 rule 3',
    "A CloudEvent whose type does not begin with the frozen root dev.aep. is out of the bridge's scope: it is reported, not mapped, not checked as AEP.",
  ),
  extensionDropped: ce(
    'extension-dropped',
    'warning',
    'AEP-0005 §2 rule 2; AEP-0001 §5.4',
    'An extension attribute whose name is not a legal AEP extension name (over 20 characters, or an AEP core attribute name such as agent or seq) cannot ride the envelope and is dropped.',
  ),
  prefixed: ce(
    'prefixed-attribute',
    'warning',
    'AEP-0005 §1 B2, B5',
    'An attribute that crosses unprefixed (id, source, subject, time, type, data, traceparent) also appears under the aep prefix (aeptraceparent, aepid, ...): it is preserved as an extension attribute, not read as the attribute itself.',
  ),
  unmapped: ce(
    'unmapped-attribute',
    'warning',
    'AEP-0005 §1-§2',
    'A CloudEvents core attribute with no AEP counterpart (dataschema) is not produced by the forward mapping and is dropped by the inverse.',
  ),
} as const satisfies Record<string, RuleMeta>;

/** The OTLP bridge rules, by short name. */
export const OTLP_RULES = {
  shape: otlp(
    'shape',
    'error',
    'AEP-0005 §3.2; OTLP/JSON (logs/v1 ExportLogsServiceRequest)',
    "The input is an OTLP/JSON ExportLogsServiceRequest: resourceLogs[].scopeLogs[].logRecords[] arrays of objects, attributes as {key, value} lists, every value an AnyValue with one member, and an AEP record's body an AnyValue map (kvlistValue).",
  ),
  foreign: otlp(
    'foreign-record',
    'warning',
    'AEP-0005 §3.2',
    'A LogRecord with no dev.aep. event name and no aep.* attribute is not an AEP export: it is reported, not mapped, not checked as AEP.',
  ),
  eventName: otlp(
    'event-name',
    'error',
    'AEP-0005 §3.2',
    'A LogRecord carrying aep.* attributes has eventName "dev.aep." + type.',
  ),
  severity: otlp(
    'severity',
    'error',
    'AEP-0005 §3.4',
    'severityText and severityNumber are one row of the §3.4 table (DEBUG 5, INFO 9, INFO2 10, WARN 13, ERROR 17, FATAL 21), or both absent.',
  ),
  time: otlp(
    'time',
    'error',
    'AEP-0005 §3.2; OTLP/JSON',
    'timeUnixNano is present: a non-zero count of nanoseconds since the epoch, as a decimal string or an integer.',
  ),
  trace: otlp(
    'trace',
    'error',
    'AEP-0005 §3.2; W3C Trace Context',
    'traceId (32 hex digits) and spanId (16 hex digits), not all zero, come together; flags only with them.',
  ),
  attribute: otlp(
    'attribute',
    'error',
    'AEP-0005 §3.2',
    'Every aep.* attribute is one of the §3.2 table (aep.agent_id, aep.session_id, aep.run_id, aep.step, aep.event_id, aep.sequence, aep.epoch, aep.causation_id, aep.capture, aep.subject, aep.source), with a stringValue (intValue for aep.sequence and aep.epoch), and no attribute key repeats.',
  ),
  genAi: otlp(
    'gen-ai',
    'error',
    'AEP-0005 §3.2',
    'Payload members named gen_ai.* are top-level LogRecord attributes, never members of the body.',
  ),
  capture: otlp(
    'capture',
    'error',
    'AEP-0005 §3.3',
    "A record at capture none, or above the exporter's max capture (default metadata), carries envelope-derived attributes only: no body and no gen_ai.* attribute.",
  ),
} as const satisfies Record<string, RuleMeta>;

/** Every bridge rule, as the catalogue lists them. */
export const AEP_BRIDGE_RULES: readonly RuleMeta[] = [...Object.values(CE_RULES), ...Object.values(OTLP_RULES)];
