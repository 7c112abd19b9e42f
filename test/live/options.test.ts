// The library's checkEndpoint checks its options as validate does: an unknown option or check, or a value out of
// range, is a TypeError naming it (and the nearest known name), before anything is sent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkEndpoint } from '../../src/index.ts';

// nothing listens there: a TypeError comes first, and a valid call would be a connection error
const URL = 'http://127.0.0.1:9';

test('checkEndpoint: an unknown option or check, or a value out of range, is a TypeError naming it', async () => {
  const rejects = (options: unknown, re: RegExp) =>
    assert.rejects(checkEndpoint(URL, options as never), (e) => {
      assert.ok(e instanceof TypeError, String(e));
      assert.match(e.message, re);
      return true;
    });
  await rejects({ checks: ['bogus'] }, /^unknown check "bogus" in option checks: one of discovery, /);
  await rejects({ checks: ['fanuot'] }, /unknown check "fanuot" in option checks \(did you mean fanout\?\)/);
  await rejects({ timeoutMS: 100 }, /^unknown option timeoutMS \(did you mean timeoutMs\?\)$/);
  await rejects({ timeoutMs: -1 }, /^option timeoutMs must be a positive number$/);
  await rejects({ timeoutMs: Number.NaN }, /option timeoutMs must be a positive number/);
  await rejects({ heartbeatMs: 0 }, /^option heartbeatMs must be a positive number$/);
  await rejects({ backpressureMib: 0 }, /^option backpressureMib must be a positive number$/);
  await rejects({ backpressureMib: 129 }, /^option backpressureMib must be at most 128, not 129$/);
  await rejects({ checks: 'fanout' }, /option checks must be an array of strings/);
  await rejects({ identity: 'loose' }, /option identity must be one of "floor", "strict", not "loose"/);
  await rejects(
    { identity: 'Strict' },
    /option identity must be one of "floor", "strict", not "Strict" \(did you mean "strict"\?\)/,
  );
  await rejects({ control: { sesion: 's' } }, /unknown option control\.sesion \(did you mean control\.session\?\)/);
  await rejects({ control: { ackWindowMs: 0 } }, /option control\.ackWindowMs must be a positive number/);
  await rejects({ onCheck: 'yes' }, /option onCheck must be a function/);
  await rejects(7, /the options must be an object/);
  // valid options reach the wire
  await assert.rejects(checkEndpoint(URL, { checks: ['fanout'], timeoutMs: 2000, control: {} }), /cannot reach/);
  // the base's path stays in the message (trial 13 #10)
  await assert.rejects(
    checkEndpoint('http://127.0.0.1:1/aep/v1', { checks: ['fanout'], timeoutMs: 2000 }),
    (e: Error) => /^cannot reach http:\/\/127\.0\.0\.1:1\/aep\/v1\/events: connection refused$/.test(e.message),
  );
});
