/**
 * The `ahp` command: Agent Hooks Protocol draft (interaction and configuration payloads,
 * MCP elicitation bodies against the pinned MCP 2025-11-25 subset) and the pin verbs.
 *
 * Bindings: `.jsonl` files and stdin are read as the stdio binding (one JSON-RPC message per
 * line, LF only); `.registration.json` files as a portable registration document; other `.json`
 * files as one HTTP-binding message (pretty-printing allowed); `--binding stdio|http|registration`
 * overrides for every input.
 */
import { Option, type Command } from 'commander';
import { bindingByName } from '../ahp/binding.ts';
import { ahpRules, knownAhpTypes, type AhpBinding } from '../ahp/driver.ts';
import { DEFAULT_AHP_STREAM_OPTIONS } from '../ahp/stream/index.ts';
import { AHP_SPEC } from '../api/ahp-spec.ts';
import { optionsFromFlags } from '../api/options.ts';
import { positiveNumber } from './args.ts';
import type * as PinVerbs from './pin.ts';
import { main, positiveInt, processIO, type CliIO, type CliProtocol } from './program.ts';

export { bindingByName };

/** The binding of one input: `--binding`, else by name ({@link bindingByName}). */
export function bindingFor(path: string, opts: Record<string, unknown>): AhpBinding {
  const b = opts.binding as AhpBinding | undefined;
  return b ?? bindingByName(path);
}

// the pin verbs (and the modules only they use) load when they can run or be listed
let pinVerbs: typeof PinVerbs | undefined;
const VERBS_WITHOUT_PIN = new Set(['validate', 'fixtures', 'rules', 'explain']);

/** The AHP protocol as the CLI sees it. */
export const ahpCli: CliProtocol = {
  name: 'ahp',
  description: 'Check Agent Hooks Protocol (draft) traffic: stdio JSONL captures, HTTP message bodies and registration documents.',
  // read from the event schema on first use (a summary), not at start-up
  get knownTypes() {
    return knownAhpTypes();
  },
  rules: ahpRules,
  // the flags map to driver options in one place: the API's (src/api/options.ts)
  driver: (opts) => AHP_SPEC.driver(optionsFromFlags('ahp', opts)),
  framingFor: (path, opts) => AHP_SPEC.framing(path, optionsFromFlags('ahp', opts)),
  validateOptions(cmd: Command) {
    cmd
      .addOption(new Option('--binding <binding>', 'read every input as this binding (default: *.registration.json or registration/*.json = registration, other .json = http, else stdio)').choices(['stdio', 'http', 'registration']))
      .addOption(new Option('--max-pending <n>', 'most intercept requests awaiting a response tracked at once').argParser(positiveInt).default(DEFAULT_AHP_STREAM_OPTIONS.maxPending))
      .addOption(new Option('--max-state-mb <mb>', 'memory budget of all stream state, in MiB (the oldest completed work is forgotten beyond it)').argParser(positiveNumber).default(DEFAULT_AHP_STREAM_OPTIONS.maxStateMb))
      .addOption(new Option('--max-events <n>', 'most event ids remembered for lineage and retries (default: no count limit, the memory budget decides)').argParser(positiveInt));
  },
  async prepare(argv) {
    const args = argv.slice(2);
    const verb = args.find((a) => !a.startsWith('-'));
    const versionOnly = verb === undefined && (args.includes('--version') || args.includes('-V'));
    if (!pinVerbs && !versionOnly && !(verb !== undefined && VERBS_WITHOUT_PIN.has(verb))) pinVerbs = await import('./pin.ts');
  },
  commands: (program, io, setExit) => pinVerbs?.registerPinCommands(program, io, setExit),
};

/** Run `ahp` with `argv` on the real process (or `io`). Returns the exit code. */
export function run(argv: string[], io: CliIO = processIO()): Promise<number> {
  return main(ahpCli, argv, io);
}
