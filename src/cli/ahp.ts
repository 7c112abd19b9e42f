/**
 * The `ahp` command: the Agent Hooks Protocol draft and the pin verbs. `.jsonl` and stdin read as stdio,
 * `.registration.json` as registration, other `.json` as one HTTP message, unless `--binding` says otherwise.
 */
import { bindingByName } from '../ahp/binding.ts';
import type { AhpBinding } from '../ahp/driver.ts';
import { AHP } from '../ahp/definition.ts';
import type * as PinVerbs from './pin.ts';
import { main, processIO, type CliBin, type CliIO } from './program.ts';

import { shapeHeap as shapeProcessHeap } from '../core/heap-shape.ts';

/**
 * The `ahp` process's heap shape (src/core/heap-shape.ts), memory-first: an AHP run keeps rows for every event id and
 * answered request, and V8's default 8 MiB steps of old generation showed as RSS growth (docs/benchmarks.md).
 */
export const shapeHeap = (): (() => void) => shapeProcessHeap({ lean: true });
export { bindingByName };

/** The binding of one input: `--binding`, else by name ({@link bindingByName}). */
export function bindingFor(path: string, opts: Record<string, unknown>): AhpBinding {
  const b = opts.binding as AhpBinding | undefined;
  return b ?? bindingByName(path);
}

// the pin verbs (and the modules only they use) load when they can run or be listed
let pinVerbs: typeof PinVerbs | undefined;
const VERBS_WITHOUT_PIN = new Set(['validate', 'fixtures', 'rules', 'explain']);

/** The `ahp` bin: the AHP definition and the pin verbs. */
export const ahpCli: CliBin = {
  def: AHP,
  extras: {
    async prepare(argv) {
      const args = argv.slice(2);
      const verb = args.find((a) => !a.startsWith('-'));
      const versionOnly = verb === undefined && (args.includes('--version') || args.includes('-V'));
      if (!pinVerbs && !versionOnly && !(verb !== undefined && VERBS_WITHOUT_PIN.has(verb)))
        pinVerbs = await import('./pin.ts');
    },
    commands: (program, io, setExit) => pinVerbs?.registerPinCommands(program, io, setExit),
  },
};

/** Run `ahp` with `argv` on the real process (or `io`). Returns the exit code. */
export function run(argv: string[], io: CliIO = processIO()): Promise<number> {
  return main(ahpCli, argv, io);
}
