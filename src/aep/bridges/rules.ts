/** The metadata of the bridge rules of `aep validate --from`, reported by the decoders (cloudevents.ts, otlp-decode.ts). */
import { ruleMessage, ruleMeta, type RuleMeta } from '../../core/rule.ts';
import { OCSF_RULES } from './ocsf.ts';
import type { BridgeIssue } from './types.ts';

/** The CloudEvents bridge rules, by short name. */
export const CE_RULES = {
  notObject: ruleMeta({
    id: 'aep/ce-not-object',
    severity: 'error',
    spec: 'CloudEvents 1.0 JSON format §3, §4',
    description: 'A CloudEvents input is one JSON object, or a batch: a JSON array whose items are all objects.',
    messages: {
      input: 'Input is {kind}, not a CloudEvents object.',
      batch: 'Batch item is {kind}, not a CloudEvents object.',
    },
  }),
  required: ruleMeta({
    id: 'aep/ce-required',
    severity: 'error',
    spec: 'CloudEvents 1.0 §3.1',
    description: 'The REQUIRED context attributes id, source, specversion and type are present (not null).',
    messages: {
      missing: 'The CloudEvent lacks the REQUIRED attribute{count:s} {missing}.',
    },
  }),
  specversion: ruleMeta({
    id: 'aep/ce-specversion',
    severity: 'error',
    spec: 'CloudEvents 1.0 §3.1; AEP-0005 §1 B1',
    description: 'specversion is "1.0".',
    messages: {
      string: 'specversion is the string "{value}", not "1.0".',
      kind: 'specversion is {kind}, not "1.0".',
    },
  }),
  attributeType: ruleMeta({
    id: 'aep/ce-attribute-type',
    severity: 'error',
    spec: 'CloudEvents 1.0 §3.1-§3.2',
    description: 'Every context attribute has a CloudEvents type.',
    detail:
      'That is: id, source, type and subject non-empty strings, dataschema an absolute URI (§3.1.1 URI: RFC 3986 §4.3, so no fragment), every string a CloudEvents String (no control character U+0000-U+001F or U+007F-U+009F, no noncharacter, no unpaired surrogate: §3.1.1), time an RFC 3339 timestamp, datacontenttype a media type (RFC 2046 type/subtype, parameters allowed), extension values strings, booleans or integers within the signed 32-bit range, an integer written as its digits alone (JSON format §2.2: "only the integer component optionally prefixed with a minus sign is permitted", so not 2.0 or 1E3; cloudevents/spec#738). aepsequence and aepepoch, Integers by AEP-0005 §1 B4, written as the canonical string of an Integer ("7", as binary-mode headers carry it and a hop back to JSON by an SDK keeps it) are read as that Integer (§3.1.1 Type System: implementations convert from the canonical string encoding) and reported, since JSON format §3 maps an Integer to a JSON number.',
    messages: {
      'string-chars':
        '{name} holds a character the CloudEvents String type disallows (a control character, a noncharacter or an unpaired surrogate).',
      'media-type':
        'datacontenttype is a string of {length} character{length:s} that is not a media type (type/subtype).',
      string: '{name} is {kind}; it must be a non-empty string.',
      uri: '{name} is a string of {length} character{length:s} that is not an absolute URI (RFC 3986 §4.3: scheme ":" hier-part, no fragment), the CloudEvents URI type.',
      'time-string': 'time is not an RFC 3339 timestamp (the CloudEvents Timestamp type): {why}.',
      'time-kind': 'time is {kind}.',
      'int-range':
        'Extension attribute {name} is an integer outside the signed 32-bit range of the CloudEvents Integer type.',
      'int-fraction': 'Extension attribute {name} is a number that is not an integer.',
      'int-literal':
        'Extension attribute {name} writes its integer with a fraction or an exponent; the JSON format writes a CloudEvents Integer as its integer digits alone (§2.2).',
      'int-string':
        'Extension attribute {name} holds its Integer as a JSON string of digits (the canonical string encoding binary-mode headers carry); the JSON format writes a CloudEvents Integer as a JSON number (§2.2, §3). It is read as that Integer.',
      'extension-kind':
        'Extension attribute {name} is {kind}; CloudEvents attribute values are strings, booleans or integers.',
    },
  }),
  attributeName: ruleMeta({
    id: 'aep/ce-attribute-name',
    severity: 'error',
    spec: 'CloudEvents 1.0 §3.1.1',
    description: 'Context attribute names consist of lower-case ASCII letters and digits only.',
    messages: {
      name: 'Attribute name "{name}" is not lower-case ASCII letters and digits; it is dropped.',
    },
  }),
  data: ruleMeta({
    id: 'aep/ce-data',
    severity: 'error',
    spec: 'AEP-0005 §1 B2; CloudEvents 1.0 JSON format §3.1',
    description:
      'The AEP payload crosses as JSON: data, or data_base64 of JSON text under a JSON datacontenttype (*/json, */*+json); not other binary data, nor data under a non-JSON datacontenttype.',
    messages: {
      base64:
        'The CloudEvent carries data_base64 without a JSON datacontenttype: binary data of no declared JSON format cannot carry an AEP payload (JSON format §3.1.2); it is dropped.',
      'base64-not-json':
        'data_base64 under a JSON datacontenttype is not base64 (RFC 4648 §4) of UTF-8 JSON text without a repeated member: {reason}; it is dropped.',
      both: 'The CloudEvent carries both data and data_base64, which are mutually exclusive (JSON format §3.1.1); data_base64 is dropped.',
      'not-json':
        'datacontenttype declares content that is not JSON, so data would be its string form (CloudEvents JSON format §3.1.1); an AEP payload is a JSON object.',
    },
  }),
  datacontenttype: ruleMeta({
    id: 'aep/ce-datacontenttype',
    severity: 'warning',
    spec: 'AEP-0005 §1 B1; CloudEvents 1.0 JSON format §3.1.1',
    description:
      'datacontenttype is what B1 writes: "application/json" exactly when data is present, absent when it is not.',
    detail:
      'B1 is a rule of the forward bridge ("set datacontenttype: "application/json" when data is present"), so its absence beside data is reported. It is read as a media type (type and subtype case-insensitive, parameters allowed; absent means JSON in the CloudEvents JSON format §3.1.2), so another spelling of JSON, or its absence, still carries the payload back: a warning, not an error.',
    messages: {
      absent:
        'data is present but datacontenttype is absent: AEP-0005 §1 B1 has the bridge "set datacontenttype: "application/json" when data is present". The payload still maps back, since the JSON format reads an absent datacontenttype as application/json (§3.1.2).',
      other: 'data is present with a JSON datacontenttype other than the "application/json" B1 writes.',
      'without-data': 'datacontenttype is present without data; the bridge sets it only when data is present.',
    },
  }),
  foreignType: ruleMeta({
    id: 'aep/ce-foreign-type',
    severity: 'warning',
    spec: 'AEP-0005 §2 rule 3',
    description:
      "A CloudEvent whose type does not begin with the frozen root dev.aep. is out of the bridge's scope: it is reported, not mapped, not checked as AEP.",
    messages: {
      foreign:
        'CE type does not begin with "dev.aep.": a foreign CloudEvent is out of the bridge\'s scope and is not checked as AEP.',
    },
  }),
  extensionDropped: ruleMeta({
    id: 'aep/ce-extension-dropped',
    severity: 'warning',
    spec: 'AEP-0005 §2 rule 2; AEP-0001 §5.4',
    description:
      'An extension attribute whose name is not a legal AEP extension name (over 20 characters, or an AEP core attribute name such as agent or seq) cannot ride the envelope and is dropped.',
    messages: {
      core: 'Extension attribute "{name}" has the name of an AEP core attribute (the bridge writes it as {written}); it is dropped.',
      long: 'Extension attribute name "{name}" is over 20 characters, not a legal AEP extension name; it is dropped.',
    },
  }),
  prefixed: ruleMeta({
    id: 'aep/ce-prefixed-attribute',
    severity: 'warning',
    spec: 'AEP-0005 §1 B2, B5',
    description:
      'An attribute that crosses unprefixed, also found under the aep prefix (aeptraceparent, aepid, ...), is preserved as an extension attribute, not read as the attribute itself.',
    detail: 'The attributes that cross unprefixed: id, source, subject, time, type, data, traceparent.',
    messages: {
      prefixed:
        'Attribute {name} is the aep-prefixed form of {base}, which crosses unprefixed; it is preserved as an extension attribute, not read as {base}.',
    },
  }),
  unmapped: ruleMeta({
    id: 'aep/ce-unmapped-attribute',
    severity: 'warning',
    spec: 'AEP-0005 §1-§2',
    description:
      'A CloudEvents core attribute with no AEP counterpart (dataschema) is not produced by the forward mapping and is dropped by the inverse.',
    messages: {
      dataschema: 'dataschema has no AEP counterpart; it is dropped.',
    },
  }),
} as const satisfies Record<string, RuleMeta>;

/** The OTLP bridge rules, by short name. */
export const OTLP_RULES = {
  shape: ruleMeta({
    id: 'aep/otlp-shape',
    severity: 'error',
    spec: 'AEP-0005 §3.2; OTLP/JSON (logs/v1 ExportLogsServiceRequest)',
    description: 'The input is an OTLP/JSON ExportLogsServiceRequest.',
    detail:
      "That is: resourceLogs[].scopeLogs[].logRecords[] arrays of objects (members of unknown names ignored, an original proto field name such as time_unix_nano read as its field and reported), attributes as {key, value} lists, every value an AnyValue with at most one member (an intValue within int64; the keys of a kvlistValue unique, common.proto), and an AEP record's body an AnyValue map (kvlistValue). An empty AnyValue body ({}, as the OpenTelemetry JS SDK writes a record without a body) is no body.",
    messages: {
      input: 'The input is {kind}, not an ExportLogsServiceRequest object.',
      'proto-name':
        'Member "{member}" is the original proto field name, not valid as an OTLP/JSON key (JSON Protobuf Encoding: lowerCamelCase, {field}); read as {field}.',
      'no-resource-logs':
        'The value has no resourceLogs, so it is not an ExportLogsServiceRequest and holds no LogRecord to check.',
      'no-resource-logs-members':
        'The value has no resourceLogs, so it is not an ExportLogsServiceRequest and holds no LogRecord to check (its members: {members}).',
      'other-signal':
        "The value has no resourceLogs: its members ({members}) make it an OTLP {signal} export, not an ExportLogsServiceRequest. AEP events export as LogRecords (AEP-0005 §3.1): give the logs pipeline's output.",
      'not-array': '{member} is {kind}, not an array.',
      'not-object': 'A {container} is {kind}, not an object.',
      'any-not-object': 'An AnyValue is {kind}, not an object.',
      'any-members': 'An AnyValue sets {count} members ({members}); it holds one.',
      'any-type': '{member} is {kind}, not {expected}.',
      'double-infinite': 'doubleValue is not a finite number; JSON cannot carry it as an AEP value.',
      int: 'intValue is {kind}.',
      'int-range': 'intValue is an integer beyond int64, the range of an OTLP intValue.',
      'kv-repeat': 'Key "{key}" repeats in a kvlistValue; its keys are unique, so which value counts is undefined.',
      'int-string':
        'intValue is {kind}: a 64-bit integer given as a string is decimal digits with an optional minus ("-7"), or a JSON number literal denoting an integer ("7e0", "7.0"; the protobuf JSON mapping accepts exponent notation quoted), with no plus sign, space or non-zero fraction.',
      'values-not-array': '{member}.values is not an array.',
      'key-value': 'A KeyValue is not an object with a string key.',
      'attribute-entry': 'An attribute is not an object with a string key.',
      body: 'body is not an AnyValue map (kvlistValue); an AEP payload is a JSON object.',
    },
  }),
  foreign: ruleMeta({
    id: 'aep/otlp-foreign-record',
    severity: 'warning',
    spec: 'AEP-0005 §3.2',
    description:
      'A LogRecord with no dev.aep. event name and no aep.* attribute is not an AEP export: it is reported, not mapped, not checked as AEP.',
    messages: {
      foreign:
        'The LogRecord has no dev.aep. event name and no aep.* attribute: not an AEP export; it is not checked as AEP.',
    },
  }),
  eventName: ruleMeta({
    id: 'aep/otlp-event-name',
    severity: 'error',
    spec: 'AEP-0005 §3.2',
    description: 'A LogRecord carrying aep.* attributes has eventName "dev.aep." + type.',
    messages: {
      prefix: 'eventName does not begin with "dev.aep.", though the record carries aep.* attributes.',
      missing: 'The record carries aep.* attributes but no eventName ("dev.aep." + type).',
      attribute:
        'The record names its event in an event.name attribute (the older OpenTelemetry event convention), not in the LogRecord field eventName (event_name) that §3.2 maps type to.',
      kind: 'eventName is {kind}, not a string ("dev.aep." + type), though the record carries aep.* attributes.',
    },
  }),
  severity: ruleMeta({
    id: 'aep/otlp-severity',
    severity: 'error',
    spec: 'AEP-0005 §3.4; OTLP/JSON (enum fields are integers)',
    description: 'severityNumber is an integer 1-24 whose severityText, if any, matches its §3.4 row.',
    detail:
      "OTLP/JSON writes enums as integers: an enum name is read as its number and reported. The number is bucketed back by the §3.4 inverse (1-8 debug, 9 info, 10-12 notice, 13-16 warning, 17-20 error, 21-24 critical): a number between the rows is no error. A row's own number (5, 9, 10, 13, 17, 21) with a severityText other than the row's (DEBUG, INFO, INFO2, WARN, ERROR, FATAL) is; severityText never comes without a number.",
    messages: {
      number: 'severityNumber is {kind}.',
      'number-name': 'severityNumber is a string that names no SeverityNumber.',
      'number-enum-name':
        'severityNumber is the enum name "{name}"; OTLP/JSON writes enum fields as integers (read as {number}).',
      'number-range': 'severityNumber is outside 1-24.',
      'text-alone': 'severityText is present without a severityNumber.',
      'row-text':
        'severityNumber {number} with severityText "{text}" is not a row of the §3.4 table ({rowText} {rowNumber} for {level}).',
      'row-text-kind':
        'severityNumber {number} with a severityText that is {kind} is not a row of the §3.4 table ({rowText} {rowNumber} for {level}).',
    },
  }),
  time: ruleMeta({
    id: 'aep/otlp-time',
    severity: 'error',
    spec: 'AEP-0005 §3.2; OTLP/JSON',
    description:
      'timeUnixNano (else observedTimeUnixNano, logs.proto) is a non-zero count of nanoseconds since the epoch that a fixed64 holds.',
    detail:
      'The count is an integer given as a JSON number, or as a string of decimal digits or of a JSON number literal denoting an integer ("1.7960292e18"; the protobuf JSON mapping accepts exponent notation quoted).',
    messages: {
      absent: 'timeUnixNano and observedTimeUnixNano are absent; AEP time comes from them.',
      kind: '{field} is {kind}.',
      string:
        '{field} is {kind}: a 64-bit integer given as a string is decimal digits ("1796029200000000000"), or a JSON number literal denoting an integer ("1.7960292e18"; the protobuf JSON mapping accepts exponent notation quoted), with no plus sign, space or non-zero fraction.',
      zero: '{field} is 0, an unknown or missing timestamp (logs.proto), and {other} is {otherState}; AEP time comes from them.',
      negative:
        '{field} is negative: logs.proto types it fixed64, an unsigned count of nanoseconds since the epoch (0 to 2^64 - 1).',
      'too-late':
        '{field} is beyond the fixed64 range of logs.proto (at most 2^64 - 1 nanoseconds, 2554-07-21T23:34:33.709551615Z).',
    },
  }),
  trace: ruleMeta({
    id: 'aep/otlp-trace',
    severity: 'error',
    spec: 'AEP-0005 §3.2; W3C Trace Context',
    description:
      'traceId (32 hex digits) and spanId (16 hex digits), not all zero, come together; flags only with them.',
    detail:
      'An absent, empty or all-zero id is no trace context (logs.proto: an id of all zeroes is invalid, and receivers SHOULD assume the record is "not associated with a trace"), as OpenTelemetry SDKs write outside any span: no finding, and the event has no traceparent.',
    messages: {
      'trace-id': 'traceId is not 32 hex digits.',
      'span-alone': 'spanId is present without a traceId (an empty or all-zero traceId is none: logs.proto).',
      'span-id': 'spanId is not 16 hex digits.',
      'trace-alone': 'traceId is present without a spanId (an empty or all-zero spanId is none: logs.proto).',
      flags: 'flags is {found}, not a fixed32 (an integer from 0 to 4294967295, logs.proto).',
      'flags-alone': 'flags is present without traceId and spanId.',
    },
  }),
  attribute: ruleMeta({
    id: 'aep/otlp-attribute',
    severity: 'error',
    spec: 'AEP-0005 §3.2',
    description: 'Every aep.* attribute is one of the §3.2 table, with its value type, and no attribute key repeats.',
    detail:
      'The table: aep.agent_id, aep.session_id, aep.run_id, aep.step, aep.event_id, aep.sequence, aep.epoch, aep.causation_id, aep.capture, aep.subject, aep.source, each with a stringValue (intValue for aep.sequence and aep.epoch).',
    messages: {
      repeat: 'Attribute key "{key}" repeats; which value counts is undefined.',
      unknown: 'Attribute "{key}" is not an aep.* attribute of the §3.2 table; it is not mapped.',
      'value-type': 'Attribute {key} holds {held}, not {want} (its §3.2 type).',
    },
  }),
  genAi: ruleMeta({
    id: 'aep/otlp-gen-ai',
    severity: 'error',
    spec: 'AEP-0005 §3.2',
    description: 'Payload members named gen_ai.* are top-level LogRecord attributes, never members of the body.',
    messages: {
      body: 'Payload member "{member}" is in the body; gen_ai.* members are top-level LogRecord attributes.',
    },
  }),
  capture: ruleMeta({
    id: 'aep/otlp-capture',
    severity: 'error',
    spec: 'AEP-0005 §3.3',
    description:
      "A record at capture none, or above the exporter's max capture (default metadata), carries envelope-derived attributes only: no body and no gen_ai.* attribute.",
    messages: {
      'body-none':
        'The record carries a body although the record is at capture none (§3.3: envelope-derived attributes only).',
      'body-above':
        "The record carries a body although the record's capture {capture} is above the max capture {max} (§3.3: envelope-derived attributes only; give the exporter's own max capture with `--max-capture`, library: `maxCapture`).",
      'attribute-none': 'The record carries the payload attribute {key} although the record is at capture none (§3.3).',
      'attribute-above':
        "The record carries the payload attribute {key} although the record's capture {capture} is above the max capture {max} (§3.3; give the exporter's own max capture with `--max-capture`, library: `maxCapture`).",
    },
  }),
} as const satisfies Record<string, RuleMeta>;

/** The rule of bridge output read as AEP JSONL (no `--from`). */
export const BRIDGE_INPUT_RULE: RuleMeta = {
  id: 'aep/bridge-input',
  severity: 'error',
  spec: 'AEP-0005 §1, §3.2; AEP-0001 §5',
  description:
    'Input in another format is one finding naming what reads it: bridge output read as AEP (--from), plain AEP read with --from, the wrong --from, or AHP messages (ahp validate).',
  detail:
    'A CloudEvent has specversion and no aep member; an OTLP/JSON request has resourceLogs; an OCSF record has class_uid and unmapped; an AHP message is JSON-RPC 2.0 with no aep member. Such lines are not checked (each would fail every envelope or bridge rule), and the input fails.',
  messages: {
    lines:
      "This line is {format} output of the AEP-0005 bridge, not an AEP event: read the input with `--from {from}` (library: `from: '{from}'`; lines like it are not checked as AEP, nor reported one by one).",
    aep: 'This line is a plain AEP event, not {format} output of the AEP-0005 bridge: drop `--from {from}` (library: `from`) to check it as AEP JSONL (lines like it are not checked as {format}, nor reported one by one).',
    other:
      "This line is {format} output of the AEP-0005 bridge, not {given}: read the input with `--from {from}` instead of `--from {givenFrom}` (library: `from: '{from}'`; lines like it are not checked, nor reported one by one).",
    ahp: 'This line is a JSON-RPC message (AHP), not an AEP event: check the input with `ahp validate` (lines like it are not checked as AEP, nor reported one by one).',
  },
};

/** Every bridge rule, as the catalogue lists them. */
export const AEP_BRIDGE_RULES: readonly RuleMeta[] = [
  ...Object.values(CE_RULES),
  ...Object.values(OTLP_RULES),
  BRIDGE_INPUT_RULE,
  ...Object.values(OCSF_RULES),
];

const BY_ID = new Map<string, RuleMeta>(AEP_BRIDGE_RULES.map((r) => [r.id, r]));

/** The bridge rule of `id`. */
export function bridgeRule(id: string): RuleMeta {
  const r = BY_ID.get(id);
  if (!r) throw new Error(`${id} is not an AEP bridge rule`);
  return r;
}

/** The sentence of a bridge issue, as its rule's template renders it. */
export function bridgeIssueMessage(issue: BridgeIssue): string {
  return ruleMessage(bridgeRule(issue.ruleId), issue.messageId, issue.args, '');
}
