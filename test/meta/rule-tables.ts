// Every table of rules whose findings `validate` (and the library) can give, read by the meta tests that hold all rules.
import { rules } from '../../src/api/report.ts';
import { AEP_BRIDGE_RULES, BRIDGE_INPUT_RULE, CE_RULES, OTLP_RULES } from '../../src/aep/bridges/rules.ts';
import { OCSF_RULES } from '../../src/aep/bridges/ocsf.ts';
import { ENVELOPE_RULES } from '../../src/aep/schema/rules.ts';
import { AHP_SCHEMA_RULES } from '../../src/ahp/schema/rules.ts';
import { JSONL_RULES } from '../../src/core/framing.ts';
import type { RuleMeta } from '../../src/core/rule.ts';

/** The rule tables of both protocols' `validate`: catalogues, framing, schema, bridge and bridge-input rules. */
export function validateRuleTables(): Iterable<RuleMeta>[] {
  return [
    rules('aep'),
    rules('ahp'),
    JSONL_RULES,
    Object.values(ENVELOPE_RULES),
    Object.values(AHP_SCHEMA_RULES),
    Object.values(CE_RULES),
    Object.values(OTLP_RULES),
    Object.values(OCSF_RULES),
    AEP_BRIDGE_RULES,
    [BRIDGE_INPUT_RULE],
  ];
}
