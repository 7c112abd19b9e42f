/**
 * The test side of OTLP protobuf: an OTLP/JSON request encoded as binary protobuf (protobufjs over our message
 * definitions), whether a JSON request says only what protobuf can say, and the Collector file exporter's framing.
 */
import { createRequire } from 'node:module';
import type * as Protobuf from 'protobufjs';
import { OTLP_LOGS_DESCRIPTOR } from '../../src/aep/bridges/otlp-proto.ts';

type Obj = Record<string, unknown>;

const pb = createRequire(import.meta.url)('protobufjs/light') as typeof Protobuf;
const root = pb.Root.fromJSON(OTLP_LOGS_DESCRIPTOR as unknown as Protobuf.INamespace);
const REQUEST = root.lookupType('ExportLogsServiceRequest');

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `json` with OTLP/JSON's hex trace and span ids as bytes, as protobufjs's fromObject reads a bytes field. */
function hexIdsAsBytes(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(hexIdsAsBytes);
  if (!isObj(v)) return v;
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [
      k,
      (k === 'traceId' || k === 'spanId') && typeof x === 'string' ? Buffer.from(x, 'hex') : hexIdsAsBytes(x),
    ]),
  );
}

/** The binary protobuf of an OTLP/JSON ExportLogsServiceRequest. */
export function encodeRequest(json: unknown): Buffer {
  return Buffer.from(REQUEST.encode(REQUEST.fromObject(hexIdsAsBytes(json) as Obj)).finish());
}

/** Messages framed as the Collector file exporter writes `format: proto`: a 4-byte big-endian length, then the bytes. */
export function frame(messages: readonly Uint8Array[]): Buffer {
  return Buffer.concat(
    messages.flatMap((m) => {
      const p = Buffer.alloc(4);
      p.writeUInt32BE(m.length);
      return [p, Buffer.from(m)];
    }),
  );
}

/**
 * Why the OTLP/JSON `json` holds what its protobuf encoding cannot carry, or `undefined`: a value of the wrong type, a
 * member no field names (an original proto name, a typo), a field set to its proto3 default (the wire omits it, so
 * `"severityText": ""` and no text read alike), an AnyValue with two members (protobuf keeps the last), ids not hex.
 */
export function notRepresentable(json: unknown): string | undefined {
  return extra(json, REQUEST, '');
}

const INT_RANGES: Readonly<Record<string, readonly [bigint, bigint]>> = {
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  SeverityNumber: [-(2n ** 31n), 2n ** 31n - 1n],
  fixed64: [0n, 2n ** 64n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  fixed32: [0n, 2n ** 32n - 1n],
};

/** Whether `x` is a value of the scalar `type` in OTLP/JSON (64-bit integers as numbers or decimal strings). */
function scalarFits(type: string, k: string, x: unknown): boolean {
  if (type === 'string') return typeof x === 'string';
  if (type === 'bool') return typeof x === 'boolean';
  if (type === 'double') return typeof x === 'number' || x === 'NaN' || x === 'Infinity' || x === '-Infinity';
  if (type === 'bytes')
    return (
      typeof x === 'string' &&
      (k === 'traceId' || k === 'spanId'
        ? /^([0-9a-fA-F]{2})*$/.test(x)
        : Buffer.from(x, 'base64').toString('base64') === x)
    );
  // an open enum (proto3): any int32 rides the wire
  const range = INT_RANGES[type];
  if (!range) return false;
  const n =
    typeof x === 'number' && Number.isSafeInteger(x)
      ? BigInt(x)
      : typeof x === 'string' && /^-?\d+$/.test(x) && type.endsWith('64')
        ? BigInt(x)
        : undefined;
  return n !== undefined && n >= range[0] && n <= range[1];
}

function extra(v: unknown, type: Protobuf.Type, at: string): string | undefined {
  if (!isObj(v)) return `${at}: not an object`;
  const set = Object.keys(v).filter((k) => v[k] !== undefined);
  if (type.name === 'AnyValue' && set.length > 1) return `${at}: ${set.length} AnyValue members`;
  for (const k of set) {
    const field = type.fields[k];
    if (!field) return `${at}/${k}: no such field`;
    const x = v[k];
    const sub =
      field.resolvedType && 'fields' in field.resolvedType ? (field.resolvedType as Protobuf.Type) : undefined;
    if (field.repeated) {
      if (!Array.isArray(x)) return `${at}/${k}: not a list`;
      for (const [i, y] of x.entries()) {
        const e = sub ? extra(y, sub, `${at}/${k}/${i}`) : undefined;
        if (e) return e;
      }
      continue;
    }
    if (sub) {
      const e = extra(x, sub, `${at}/${k}`);
      if (e) return e;
      continue;
    }
    if (!scalarFits(field.type, k, x)) return `${at}/${k}: not a ${field.type}`;
    // a oneof member has presence: its default is written; any other field at its default is not
    if (!field.partOf && (x === 0 || x === '0' || x === '' || x === false)) return `${at}/${k}: a proto3 default`;
  }
  return undefined;
}
