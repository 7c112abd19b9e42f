// The invariants of issue 23 over AHP (test/invariants/define.ts).
import { defineInvariants } from './define.ts';

defineInvariants('ahp');
