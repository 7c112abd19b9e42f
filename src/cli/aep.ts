/**
 * The `aep` command: Agent Event Protocol 0.1 (with AEP-0006 forms).
 */
import { Option, type Command } from 'commander';
import { aepRules, knownAepTypes } from '../aep/protocol.ts';
import { AEP_SPEC } from '../api/aep-spec.ts';
import { optionsFromFlags } from '../api/options.ts';
import { DEFAULT_AEP_STREAM_OPTIONS } from '../aep/stream/index.ts';
import { addCaptureVerbs } from './aep-capture.ts';
import { positiveNumber } from './args.ts';
import { main, positiveInt, processIO, type CliIO, type CliProtocol } from './program.ts';

/** The AEP protocol as the CLI sees it. */
export const aepCli: CliProtocol = {
  name: 'aep',
  description: 'Check Agent Event Protocol (AEP 0.1) JSONL streams for conformance.',
  // read from the registry on first use (a summary), not at start-up
  get knownTypes() {
    return knownAepTypes();
  },
  rules: aepRules,
  // the flags map to driver options in one place: the API's (src/api/options.ts)
  driver: (opts) => AEP_SPEC.driver(optionsFromFlags('aep', opts)),
  commands: addCaptureVerbs,
  validateOptions(cmd: Command) {
    cmd
      .addOption(new Option('--max-sessions <n>', 'most (source, session) pairs tracked at once').argParser(positiveInt).default(DEFAULT_AEP_STREAM_OPTIONS.maxSessions))
      .addOption(new Option('--max-open <n>', 'most open attention requests and pending commands tracked at once').argParser(positiveInt).default(DEFAULT_AEP_STREAM_OPTIONS.maxOpen))
      .addOption(new Option('--max-state-mb <mb>', 'memory budget of all stream state, in MiB (the oldest completed work is forgotten beyond it)').argParser(positiveNumber).default(DEFAULT_AEP_STREAM_OPTIONS.maxStateMb))
      .addOption(new Option('--max-ids <n>', 'most (source, id) digests kept for identity checks (default: no count limit, the memory budget decides)').argParser(positiveInt))
      .addOption(new Option('--ack-window <ms>', "the targets' ack window in milliseconds (hello.capabilities.control.ack_window_ms)").argParser(positiveInt).default(DEFAULT_AEP_STREAM_OPTIONS.ackWindowMs));
  },
};

/** Run `aep` with `argv` on the real process (or `io`). Returns the exit code. */
export function run(argv: string[], io: CliIO = processIO()): Promise<number> {
  return main(aepCli, argv, io);
}
