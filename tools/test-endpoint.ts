/**
 * Start the compliant test endpoint of the `aep live` tests (test/live/endpoint.ts) on 127.0.0.1 and print its URL, to
 * try `aep live` against it: `npx tsx tools/test-endpoint.ts [--control] [--ws-only|--sse-only] [--broken NAME]`. `--control` also serves an
 * AEP-0004 control session (the `aep live` options that reach it are printed); `--ws-only` (`--sse-only`) names no SSE
 * (WebSocket) endpoint in its discovery document; `--broken NAME` starts one of the broken variants of
 * test/live/cases.ts instead. The `--token` printed is the one its event surfaces require (AEP-0003 §8.1; `--broken
 * tokenless` takes requests without it). Ctrl-C (SIGINT) or SIGTERM closes it and ends the process.
 */
import { nearestWord } from '../src/core/nearest.ts';
import { CONTROL_SESSION, TOKEN, startEndpoint, type Broken } from '../test/live/endpoint.ts';
import { LIVE_CASES } from '../test/live/cases.ts';

const USAGE = 'usage: npx tsx tools/test-endpoint.ts [--control] [--ws-only|--sse-only] [--broken NAME]\n';

const args = process.argv.slice(2);
let control = false;
// one consuming binding only: the discovery document names no stream (--ws-only) or no socket (--sse-only)
let only: 'wsOnly' | 'sseOnly' | undefined;
let broken: Broken | undefined;
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if (a === '--control') control = true;
  else if (a === '--ws-only') only = 'wsOnly';
  else if (a === '--sse-only') only = 'sseOnly';
  else if (a === '--broken' && args[i + 1] === undefined) {
    process.stderr.write(`test-endpoint: --broken needs a variant NAME\n${USAGE}`);
    process.exit(2);
  } else if (a === '--broken') {
    // every variant has its case (test/live/cases.ts); an unknown name would start a compliant endpoint mislabelled
    const name = args[++i]!;
    const variants = LIVE_CASES.map((c) => c.variant);
    if (!variants.includes(name as Broken)) {
      const near = nearestWord(name, variants, true);
      process.stderr.write(
        `test-endpoint: unknown broken variant ${JSON.stringify(name)}${near ? ` (did you mean ${near}?)` : ''}; variants: ${[...variants].sort().join(', ')}\n${USAGE}`,
      );
      process.exit(2);
    }
    broken = name as Broken;
  } else if (a === '--help' || a === '-h') {
    process.stdout.write(USAGE);
    process.exit(0);
  } else {
    process.stderr.write(`test-endpoint: unknown argument ${a}\n${USAGE}`);
    process.exit(2);
  }
}

const ep = await startEndpoint(broken, { ...(control ? { control: true } : {}), ...(only ? { [only]: true } : {}) });
process.stdout.write(
  `${ep.url}\n` +
    `test endpoint${broken ? ` (broken: ${broken})` : ''} listening on 127.0.0.1; try: aep live ${ep.url}${broken?.startsWith('tokenless') ? ' (this variant takes requests without a token)' : ` --token ${TOKEN}`}${control ? ` --control-session ${CONTROL_SESSION}` : ''}\n` +
    'Ctrl-C stops it\n',
);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await ep.close();
  process.stdout.write('test endpoint stopped\n');
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
