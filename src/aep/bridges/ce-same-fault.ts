// The AEP findings a CloudEvents finding already tells, for the B2 members `--from cloudevents` copies verbatim
// (AEP-0005 §2): one fault, one finding, but another fault of the same value still its own finding.
import { isDateTime, isUri } from '../../core/schema/formats.ts';
import { ENVELOPE_RULES } from '../schema/rules.ts';
import { ceStringPart } from './numbers.ts';

const AEP_ATTRIBUTE_TYPE = ENVELOPE_RULES.attributeType.id;
const AEP_SOURCE_URI = ENVELOPE_RULES.source.id;
const AEP_TIME_FORMAT = ENVELOPE_RULES.time.id;

/**
 * The AEP rules that would report the fault a CE finding (`messageId`) told about B2 member `name`: the kind or
 * emptiness of a String is `aep/attribute-type` (and, for `source`, `aep/source-uri`: "" is no URI for being empty),
 * a Timestamp's kind or RFC 3339 form the same as AEP `time`'s. A disallowed character (§3.1.1 String) is the URI or
 * date-time fault only when the value without it is a URI or date-time; else that AEP finding is another fault.
 */
export function sameFault(name: string, messageId: string, v: unknown): Set<string> {
  const rules = new Set<string>();
  if (messageId === 'string' || messageId === 'time-kind') rules.add(AEP_ATTRIBUTE_TYPE);
  if (messageId === 'string' && name === 'source' && v === '') rules.add(AEP_SOURCE_URI);
  if (messageId === 'time-kind' || messageId === 'time-string') rules.add(AEP_TIME_FORMAT);
  if (messageId === 'string-chars' && typeof v === 'string') {
    if (name === 'source' && isUri(ceStringPart(v))) rules.add(AEP_SOURCE_URI);
    if (name === 'time' && isDateTime(ceStringPart(v))) rules.add(AEP_TIME_FORMAT);
  }
  return rules;
}
