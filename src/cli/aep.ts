/** The `aep` command: Agent Event Protocol 0.1 (with AEP-0006 forms). */
import { AEP } from '../aep/definition.ts';
import type { Command } from 'commander';
import { addCaptureVerbs } from './aep-capture.ts';
import { addLiveVerb } from './aep-live.ts';
import { main, processIO, type CliBin, type CliIO } from './program.ts';

/** The `aep` bin: the AEP definition and the capture verbs. */
export { shapeHeap } from '../core/heap-shape.ts';
export const aepCli: CliBin = {
  def: AEP,
  extras: {
    commands: (program: Command, io: CliIO, setExit: (code: number) => void) => {
      addCaptureVerbs(program, io, setExit);
      addLiveVerb(program, io, setExit);
    },
  },
};

/** Run `aep` with `argv` on the real process (or `io`). Returns the exit code. */
export function run(argv: string[], io: CliIO = processIO()): Promise<number> {
  return main(aepCli, argv, io);
}
