import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { parsePatrolRecording } from '../patrol/PatrolRecording.js';
import { replayPatrolSteps } from '../patrol/replayPatrolSteps.js';
import { patrolMachine } from '../patrol/patrolMachine.js';
import type { PatrolMachine } from '../patrol/createPatrolMachine.js';
import type { CliIO } from './Command.js';
import { loadKindMachineFile } from './loadMachineFile.js';

/** A Patrol recording is one run: small, read whole. A file beyond this is no recording Patrol wrote. */
const MAX_PATROL_RECORDING_BYTES = 64 * 1024 * 1024;

/**
 * `replay` of a Patrol run recording (`*.patrol.jsonl`, its first line the `patrol-run` header):
 * its steps on the Patrol machine (or `--machine FILE`, read as a Patrol machine), each step's
 * projection compared with the recorded one. Exit codes as `replay`'s: 0, 1 divergences, 2 a bad file.
 *
 * @example
 * await replayPatrolFile('recordings/patrol-demo.patrol.jsonl', undefined, false, io); // 0
 */
export function replayPatrolFile(file: string, machinePath: string | undefined, json: boolean, io: CliIO): number {
  if (statSync(file).size > MAX_PATROL_RECORDING_BYTES) {
    io.err(`replay: ${file}: over ${MAX_PATROL_RECORDING_BYTES} bytes: not a Patrol run recording`);
    return 2;
  }
  const read = parsePatrolRecording(basename(file), readFileSync(file, 'utf8'));
  if (!read.ok) {
    io.err(`replay: ${read.message}`);
    return 2;
  }
  let machine: PatrolMachine = patrolMachine;
  if (machinePath !== undefined) {
    const loaded = loadKindMachineFile(machinePath, io, 'patrol');
    if (!loaded) return 2;
    machine = loaded.machine as PatrolMachine;
  }
  const { steps, runId } = read.recording;
  const { final, divergences } = replayPatrolSteps(steps, machine);
  if (json) {
    io.out(JSON.stringify({ file, kind: 'patrol-run', runId, steps: steps.length, final, divergences }, null, 2));
  } else {
    io.out(`${file}: a Patrol run recording, ${steps.length} steps (run ${runId}): ends in ${final.state}`);
    if (divergences.length === 0) io.out('no divergence: the Patrol machine takes every recorded step the same way');
    else {
      io.out(`${divergences.length} divergence${divergences.length === 1 ? '' : 's'}:`);
      for (const d of divergences)
        io.out(
          `  step ${d.step + 1} (${d.event}): recorded ${JSON.stringify(d.recorded)}, now ${JSON.stringify(d.replayed)}`,
        );
    }
  }
  return divergences.length > 0 ? 1 : 0;
}
