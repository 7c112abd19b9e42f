/**
 * The explicit list of AEP per-event rules, in the order they run (after envelope and
 * payload validation succeed).
 */
import type { EventRule, RuleMeta } from '../../core/rule.ts';
import type { AepEvent } from '../event.ts';
import { captureLevel } from './capture-level.ts';
import { captureNone } from './capture-none.ts';
import { digestShape } from './digest-shape.ts';
import { ENVELOPE_RULES } from './envelope.ts';
import {
  formDuplicateId,
  formFieldConstraint,
  formFieldsKind,
  formLabelPlaceholder,
  promptPlaceholder,
} from './form-spec.ts';
import { redactionLeak, redactionLeakProvider } from './redaction-leak.ts';
import { registryProseConflict } from './registry-prose.ts';

/** Per-event rules run on events whose envelope and payload are valid. */
export const AEP_EVENT_RULES: readonly EventRule<AepEvent>[] = [
  captureNone,
  captureLevel,
  formFieldsKind,
  formFieldConstraint,
  formDuplicateId,
  formLabelPlaceholder,
  promptPlaceholder,
  registryProseConflict,
  redactionLeak,
  redactionLeakProvider,
  digestShape,
];

/** Rules decided by schemas and the registry (reported by the checker itself). */
export const AEP_SCHEMA_RULES: readonly RuleMeta[] = Object.values(ENVELOPE_RULES);
