import { isObj, type Obj } from '../../core/value.ts';
import { ahpSchemas } from './schemas.ts';
import { fastWirePass } from './wire-fast.ts';

const MESSAGES = 'messages.schema.json#/$defs/';

/** The six branches of the wire root's `oneOf`, each with a test false only where the branch fails. */
const BRANCHES: readonly { ref: string; mayPass: (v: Obj) => boolean }[] = [
  { ref: `${MESSAGES}interceptRequest`, mayPass: (v) => v.method === 'hooks/intercept' },
  { ref: `${MESSAGES}interceptResponse`, mayPass: (v) => v.result !== undefined },
  { ref: `${MESSAGES}errorResponse`, mayPass: (v) => v.error !== undefined },
  { ref: `${MESSAGES}observeNotification`, mayPass: (v) => v.method === 'hooks/observe' },
  { ref: `${MESSAGES}capabilitiesRequest`, mayPass: (v) => v.method === 'hooks/capabilities' },
  { ref: `${MESSAGES}capabilitiesResponse`, mayPass: (v) => v.result !== undefined },
];

let checks: ((value: unknown) => boolean)[] | undefined;
let whole: ((value: unknown) => boolean) | undefined;

/** The verdict of the wire root: the fast pass (wire-fast.ts), else {@link wireVerdictGeneral}; the same answer. */
export function wireVerdict(value: unknown): boolean {
  return (isObj(value) && fastWirePass(value)) || wireVerdictGeneral(value);
}

/**
 * The wire root's verdict dispatched on `method`, `result` and `error`: only the branches those members leave possible
 * are run, so a message costs one branch instead of six; a value that is not an object takes the whole validator.
 */
export function wireVerdictGeneral(value: unknown): boolean {
  if (!checks) {
    const reg = ahpSchemas();
    checks = BRANCHES.map((b) => reg.check(b.ref));
    whole = reg.check('wire.schema.json');
  }
  if (!isObj(value)) return whole!(value);
  let passing = 0;
  for (let i = 0; i < BRANCHES.length; i++) {
    if (!BRANCHES[i]!.mayPass(value) || !checks[i]!(value)) continue;
    if (++passing > 1) return false;
  }
  return passing === 1;
}

/** The whole `oneOf` verdict of the wire root, undispatched (tests hold {@link wireVerdict} to it). */
export function wireVerdictUndispatched(value: unknown): boolean {
  return ahpSchemas().check('wire.schema.json')(value);
}
