/** The exit codes each verb's `--help` ends with: only the codes that verb has, in its own terms (README §Exit codes). */

const OUTPUT = 'or output that could not be written';
const STREAM_2 = `a usage error, an unreadable input, a rule that threw, ${OUTPUT}`;
const FAIL_ON_0 = 'nothing at or above --fail-on (default error)';
// redact, downlevel, convert: the exit code of src/cli/aep-capture.ts runFilter
const TRANSFORM = [
  'no error finding and no line refused',
  'an error finding (an empty input too), or a line refused (not written, the reason on stderr; bridge output and AHP messages too)',
  STREAM_2,
] as const;

/** A line per exit code of each verb, by its path under the bin (`pin verify`). */
const CODES: Readonly<Record<string, readonly [string, string | undefined, string]>> = {
  validate: [FAIL_ON_0, 'a finding at or above --fail-on', STREAM_2],
  fixtures: [
    'every case gave its expected verdict',
    'a case that did not (a fixture mismatch), a stale --deviations entry, or with --require-all an absent case',
    `a usage error (-o in the fixture directory too), a harness error (unknown layout, a case that cannot be read, a malformed deviations file, nothing to check), ${OUTPUT}`,
  ],
  rules: ['the list was written', undefined, `a usage error, ${OUTPUT}`],
  explain: ['the rule was described', undefined, `a usage error (an unknown rule id too), ${OUTPUT}`],
  redact: TRANSFORM,
  downlevel: TRANSFORM,
  convert: TRANSFORM,
  filter: [
    'the matching lines were written (none matching too)',
    'a line that is not a JSON object, a line of another format (bridge output, an AHP message: aep/bridge-input), or an error about the input (an empty input, a byte order mark)',
    `an invalid --where filter (a severity or capture value outside its closed set too), a usage error, an unreadable input, ${OUTPUT}`,
  ],
  live: [
    FAIL_ON_0,
    'a finding at or above --fail-on (a failing check; an unreachable plain http: base off this host too)',
    `a usage error, an endpoint that cannot be reached, no check asked for that ran, a check skipped because the endpoint refused the credentials (401/403: no --token, or a wrong one) and nothing at or above --fail-on, a rule that threw, ${OUTPUT}`,
  ],
  'pin verify': [
    'the pin verified: digests and extraction match',
    'a pin mismatch, or nothing verified (an error finding)',
    `a usage error (a --dir that is no folder, -o inside the pin folder or on the extraction), ${OUTPUT}`,
  ],
  'pin refresh': [
    'the upstream files are the pinned ones',
    'the upstream files differ from the pin (also after --adopt), or another error finding',
    `a usage error (-o inside the pin folder or on the extraction too), a download that did not complete (network, redirect, size), ${OUTPUT}`,
  ],
};

/** The exit-code text after the help of the verb at `path`. @throws Error for a verb without an entry (a new verb). */
export function exitHelp(path: string): string {
  const codes = CODES[path];
  if (codes === undefined) throw new Error(`no exit codes written for the verb "${path}" (src/cli/exit-help.ts)`);
  const lines = codes.flatMap((text, code) => (text === undefined ? [] : [`  ${code}  ${text}`]));
  return `\nExit codes (README §Exit codes):\n${lines.join('\n')}`;
}
