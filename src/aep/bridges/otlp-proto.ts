/**
 * OTLP binary protobuf (OTLP specification §OTLP/HTTP, "Binary Protobuf Encoding": proto3) read into the object the
 * OTLP/JSON reader builds, so `--from otlp` checks one LogRecord the same whichever encoding carried it. protobufjs
 * decodes; the message definitions below are ours, the subset `--from otlp` reads, written from the OTLP protocol's
 * logs.proto, common.proto, resource.proto and logs_service.proto (field numbers and types as those files give them).
 */
import { createRequire } from 'node:module';
import type * as Protobuf from 'protobufjs';
import type { MessageArgs } from '../../core/message.ts';
import type { Obj } from '../../core/value.ts';

const repeated = (type: string, id: number) => ({ rule: 'repeated', type, id });
const one = (type: string, id: number) => ({ type, id });

/** OTLP logs/v1 SeverityNumber (logs.proto): UNSPECIFIED 0, then TRACE..FATAL with their 2-4 variants, 1-24. */
const SEVERITY_VALUES: Readonly<Record<string, number>> = (() => {
  const o: Record<string, number> = { SEVERITY_NUMBER_UNSPECIFIED: 0 };
  ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'].forEach((b, i) => {
    for (let j = 0; j < 4; j++) o[`SEVERITY_NUMBER_${b}${j ? j + 1 : ''}`] = i * 4 + j + 1;
  });
  return o;
})();

/**
 * The protobufjs JSON descriptor of the messages `--from otlp` reads, by their OTLP names (package names dropped: one
 * flat namespace). Fields are named in lowerCamelCase, the OTLP/JSON keys, so a decoded message has the JSON's names.
 * A field left out (Resource.entity_refs, KeyValue.key_strindex, AnyValue.string_value_strindex) is read as protobuf
 * reads any unknown field: skipped, as OTLP/JSON receivers skip unknown names.
 */
export const OTLP_LOGS_DESCRIPTOR = {
  nested: {
    // collector/logs/v1/logs_service.proto; LogsData (logs.proto) has the same field 1
    ExportLogsServiceRequest: { edition: 'proto3', fields: { resourceLogs: repeated('ResourceLogs', 1) } },
    ResourceLogs: {
      edition: 'proto3',
      fields: { resource: one('Resource', 1), scopeLogs: repeated('ScopeLogs', 2), schemaUrl: one('string', 3) },
    },
    ScopeLogs: {
      edition: 'proto3',
      fields: {
        scope: one('InstrumentationScope', 1),
        logRecords: repeated('LogRecord', 2),
        schemaUrl: one('string', 3),
      },
    },
    LogRecord: {
      edition: 'proto3',
      fields: {
        timeUnixNano: one('fixed64', 1),
        severityNumber: one('SeverityNumber', 2),
        severityText: one('string', 3),
        body: one('AnyValue', 5),
        attributes: repeated('KeyValue', 6),
        droppedAttributesCount: one('uint32', 7),
        flags: one('fixed32', 8),
        traceId: one('bytes', 9),
        spanId: one('bytes', 10),
        observedTimeUnixNano: one('fixed64', 11),
        eventName: one('string', 12),
      },
    },
    SeverityNumber: { edition: 'proto3', values: SEVERITY_VALUES },
    // resource/v1/resource.proto
    Resource: {
      edition: 'proto3',
      fields: { attributes: repeated('KeyValue', 1), droppedAttributesCount: one('uint32', 2) },
    },
    // common/v1/common.proto
    InstrumentationScope: {
      edition: 'proto3',
      fields: {
        name: one('string', 1),
        version: one('string', 2),
        attributes: repeated('KeyValue', 3),
        droppedAttributesCount: one('uint32', 4),
      },
    },
    AnyValue: {
      edition: 'proto3',
      oneofs: {
        value: {
          oneof: ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'],
        },
      },
      fields: {
        stringValue: one('string', 1),
        boolValue: one('bool', 2),
        intValue: one('int64', 3),
        doubleValue: one('double', 4),
        arrayValue: one('ArrayValue', 5),
        kvlistValue: one('KeyValueList', 6),
        bytesValue: one('bytes', 7),
      },
    },
    ArrayValue: { edition: 'proto3', fields: { values: repeated('AnyValue', 1) } },
    KeyValueList: { edition: 'proto3', fields: { values: repeated('KeyValue', 1) } },
    KeyValue: { edition: 'proto3', fields: { key: one('string', 1), value: one('AnyValue', 2) } },
  },
} as const;

type Light = typeof Protobuf;
let loaded: { pb: Light; request: Protobuf.Type } | undefined;

/** protobufjs (its reflection build, no .proto parser) and our request type, loaded on first use: no CLI start pays. */
function types(): { pb: Light; request: Protobuf.Type } {
  if (loaded) return loaded;
  // require, not import(): the CLI bundle runs from a V8 code cache, where a dynamic import has no loader
  const pb = createRequire(import.meta.url)('protobufjs/light') as Light;
  const root = pb.Root.fromJSON(OTLP_LOGS_DESCRIPTOR as unknown as Protobuf.INamespace);
  loaded = { pb, request: root.lookupType('ExportLogsServiceRequest') };
  return loaded;
}

/** Why a message could not be read: the byte offset in the message, a template of `jsonl/invalid-protobuf`, its arguments. */
export interface ProtobufProblem {
  offset: number;
  messageId: 'truncated' | 'varint' | 'wireType' | 'fieldZero' | 'fieldWireType' | 'utf8' | 'depth' | 'invalid';
  args: MessageArgs;
}

/** The outcome of {@link decodeOtlpProtobuf}: the OTLP/JSON object of the request, or what stopped it. */
export type ProtobufDecode = { ok: true; request: Obj } | { ok: false; problem: ProtobufProblem };

const WIRE_NAMES = ['varint', '64-bit', 'length-delimited', 'start group', 'end group', '32-bit', '6', '7'];

/**
 * One binary ExportLogsServiceRequest as the OTLP/JSON reader's object (OTLP/JSON: lowerCamelCase keys, 64-bit
 * integers as decimal strings, trace and span ids as hex, enums as numbers, bytes as base64; proto3 defaults omitted,
 * as a proto3 writer omits them). A field whose wire type is not its type's is an error, not silently skipped.
 */
export function decodeOtlpProtobuf(bytes: Uint8Array): ProtobufDecode {
  const { pb, request } = types();
  const reader = pb.Reader.create(bytes);
  // kept, to tell a known field sent with the wrong wire type (protobufjs reads it as unknown) from an unknown one
  reader.discardUnknown = false;
  let msg: Protobuf.Message;
  try {
    msg = request.decode(reader);
  } catch (e) {
    return { ok: false, problem: problemOf(e, reader) };
  }
  const wrong = wrongWire(msg, request, bytes, pb);
  if (wrong) return { ok: false, problem: wrong };
  const out = render(msg, request) as Obj;
  // proto3 cannot tell an empty list from none: the request always has its list (an empty one has no record)
  out.resourceLogs ??= [];
  return { ok: true, request: out };
}

/** The problem of a protobufjs decode error, at the reader's position when it threw. */
function problemOf(e: unknown, reader: Protobuf.Reader): ProtobufProblem {
  const text = e instanceof Error ? e.message : String(e);
  const offset = Math.min(reader.pos, reader.buf.length);
  if (/index out of range/.test(text)) return { offset, messageId: 'truncated', args: { bytes: reader.buf.length } };
  if (/invalid (varint|length) encoding/.test(text)) return { offset, messageId: 'varint', args: {} };
  const wt = /invalid wire type (\d+)/.exec(text);
  if (wt) return { offset, messageId: 'wireType', args: { wireType: Number(wt[1]) } };
  if (/field number 0/.test(text)) return { offset, messageId: 'fieldZero', args: {} };
  if (/not valid for encoding utf-8/i.test(text)) return { offset, messageId: 'utf8', args: {} };
  if (/max depth/.test(text)) return { offset, messageId: 'depth', args: { limit: types().pb.util.recursionLimit } };
  return { offset, messageId: 'invalid', args: { reason: text.slice(0, 120) } };
}

/** The first known field written with another wire type than its type's (kept among the unknown fields), if any. */
function wrongWire(
  msg: Protobuf.Message,
  type: Protobuf.Type,
  bytes: Uint8Array,
  pb: Light,
): ProtobufProblem | undefined {
  const unknowns = (msg as unknown as { $unknowns?: Uint8Array[] }).$unknowns;
  for (const raw of unknowns ?? []) {
    const tag = pb.Reader.create(raw).uint32();
    const field = type.fieldsById[tag >>> 3];
    if (!field) continue;
    const want =
      field.resolvedType && 'fields' in field.resolvedType
        ? 2
        : ((pb.types.basic as Readonly<Record<string, number>>)[field.type] ?? 0);
    return {
      offset: raw.byteOffset - bytes.byteOffset,
      messageId: 'fieldWireType',
      args: {
        message: type.name,
        field: field.name,
        number: field.id,
        found: WIRE_NAMES[tag & 7]!,
        expected: WIRE_NAMES[want]!,
      },
    };
  }
  for (const field of type.fieldsArray) {
    const sub = field.resolvedType;
    if (!sub || !('fields' in sub)) continue;
    const v = (msg as unknown as Obj)[field.name];
    for (const m of Array.isArray(v) ? v : v ? [v] : []) {
      const w = wrongWire(m as Protobuf.Message, sub as Protobuf.Type, bytes, pb);
      if (w) return w;
    }
  }
  return undefined;
}

const ID_FIELDS = new Set(['traceId', 'spanId']);

/** The OTLP/JSON value of a decoded message (present fields only: protobufjs leaves proto3 defaults unset). */
function render(msg: Protobuf.Message, type: Protobuf.Type): Obj {
  const m = msg as unknown as Obj;
  const out: Obj = {};
  for (const field of type.fieldsArray) {
    if (!Object.hasOwn(m, field.name)) continue;
    const v = m[field.name];
    const sub =
      field.resolvedType && 'fields' in field.resolvedType ? (field.resolvedType as Protobuf.Type) : undefined;
    if (Array.isArray(v)) {
      if (v.length) out[field.name] = v.map((x) => (sub ? render(x as Protobuf.Message, sub) : scalar(field, x)));
    } else if (v !== undefined && v !== null)
      out[field.name] = sub ? render(v as Protobuf.Message, sub) : scalar(field, v);
  }
  return out;
}

/** A scalar by the proto3 JSON mapping, with OTLP/JSON's hex trace and span ids. */
function scalar(field: Protobuf.Field, v: unknown): unknown {
  if (v instanceof Uint8Array)
    return ID_FIELDS.has(field.name) ? Buffer.from(v).toString('hex') : Buffer.from(v).toString('base64');
  // int64 and fixed64 (a protobufjs Long, or a number where no Long is loaded): a decimal string, exact
  if (typeof v === 'object' && v !== null) return String(v);
  if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
  if (typeof v === 'number' && (field.type === 'int64' || field.type === 'fixed64')) return String(v);
  return v;
}
