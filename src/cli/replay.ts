import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { RecordingParseError, parseRecording, replayRecording } from '../recording.js';
import type { RecordingEntry } from '../RecordingEntry.js';
import { UsageError, type Command } from './Command.js';
import { loadMachineFile } from './loadMachineFile.js';
import { defaultMachinePath } from './packageRoot.js';

export const replayCommand: Command = {
  name: 'replay',
  summary: 'replay a recording against the machine and list divergences',
  usage: `assistant-safety replay FILE [--machine FILE] [--json]

Replays a JSON Lines recording through machines/assistant-safety.json as it is
now (or --machine FILE) and
prints a summary and every divergence: where the recorded decision, state or
context differs from what the machine does now.

Exit codes: 0 no divergence, 1 divergences or a torn last line, 2 a bad file.`,
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { machine: { type: 'string' }, json: { type: 'boolean' } },
    });
    if (positionals.length !== 1) throw new UsageError('replay takes exactly one recording file');
    const file = positionals[0]!;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      io.err(`replay: cannot read ${file}: ${(e as Error).message}`);
      return 2;
    }
    // The machine file is read now, not the copy built into dist/: an edited machine needs no rebuild.
    const machine = loadMachineFile(values.machine ?? defaultMachinePath(), io);
    if (machine === null) return 2;

    let entries: RecordingEntry[];
    let torn: number | undefined;
    try {
      entries = parseRecording(text, { allowTornTail: true, onTornTail: (line) => (torn = line) });
    } catch (e) {
      if (e instanceof RecordingParseError) {
        io.err(`replay: ${file}: ${e.message}`);
        return 2;
      }
      throw e;
    }
    const result = replayRecording(entries, { machine });
    if (values.json) {
      io.out(JSON.stringify({ file, entries: entries.length, tornLine: torn ?? null, ...result }, null, 2));
    } else {
      const sessions = Object.entries(result.sessions);
      io.out(`${file}: ${entries.length} entries, ${sessions.length} session${sessions.length === 1 ? '' : 's'}`);
      for (const [id, state] of sessions) io.out(`  session ${id}: ends in ${state}`);
      if (torn !== undefined)
        io.out(`warning: line ${torn} is torn (cut off mid-write); replayed the complete lines before it`);
      if (result.divergences.length === 0)
        io.out('no divergence: the machine makes every recorded decision the same way');
      else {
        io.out(`${result.divergences.length} divergence${result.divergences.length === 1 ? '' : 's'}:`);
        for (const d of result.divergences) {
          const entry = entries[d.index]!;
          io.out(
            `  entry ${d.index + 1} (session ${d.session} #${d.seq}, ${entry.call.type}): ${d.field} recorded ${JSON.stringify(d.recorded)}, now ${JSON.stringify(d.actual)}`,
          );
        }
      }
    }
    return result.divergences.length > 0 || torn !== undefined ? 1 : 0;
  },
};
