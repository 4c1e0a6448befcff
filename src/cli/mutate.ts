import { parseArgs } from 'node:util';
import { runMutants, type MutantResult } from '../testing/mutate.js';
import { machineFileArgument } from './check.js';
import type { Command } from './Command.js';
import { KIND_USAGE, loadKindMachineFile } from './loadMachineFile.js';
import { defaultMachinePath } from '../node/packageRoot.js';

export const mutateCommand: Command = {
  name: 'mutate',
  summary: 'generate every single-point mutant of the machine and report which check kills',
  usage: `assistant-safety mutate [FILE | --machine FILE] [--kind safety|patrol] [--json] [--all]

Generates every single-point mutant of the machine JSON (default: the shipped
machines/assistant-safety.json): drop a guard, swap a guard for another,
retarget a transition, drop an action, drop a transition. Each is killed when
the exhaustive check of its kind's invariants finds a violation, or when
validation rejects it. Mutants known to be equivalent are listed with the
reason. A mutant is named by its operator and the transition's id
(STATE.EVENT[i], *.EVENT[i] for the root's): drop-guard RESOLVING.BEGIN_CALL[2] (isWrite).

${KIND_USAGE}

  --all   list every mutant, not only the survivors and equivalents

Exit codes: 0 every mutant killed or equivalent (100% score), 1 a mutant
survived, 2 a malformed machine file.`,
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        machine: { type: 'string' },
        kind: { type: 'string' },
        json: { type: 'boolean' },
        all: { type: 'boolean' },
      },
    });
    const file = machineFileArgument(positionals, values.machine) ?? defaultMachinePath();
    const loaded = loadKindMachineFile(file, io, values.kind);
    if (!loaded) return 2;
    const report = runMutants(loaded.definition, { testing: loaded.testing });
    const line = (r: MutantResult) =>
      `  ${r.status.padEnd(10)} ${r.mutant.id}${r.detail ? `\n             ${r.detail}` : ''}`;
    if (values.json) {
      io.out(
        JSON.stringify(
          {
            machine: file,
            kind: loaded.kindName,
            mutants: report.results.length,
            killed: report.killed,
            rejected: report.rejected,
            equivalent: report.equivalent,
            survived: report.survived,
            score: report.score,
            ms: Math.round(report.ms),
            results: report.results.map((r) => ({
              id: r.mutant.id,
              operator: r.mutant.operator,
              status: r.status,
              ...(r.invariant && { invariant: r.invariant }),
              ...(r.detail && { detail: r.detail }),
            })),
          },
          null,
          2,
        ),
      );
    } else {
      const byOperator = new Map<string, number>();
      for (const r of report.results) byOperator.set(r.mutant.operator, (byOperator.get(r.mutant.operator) ?? 0) + 1);
      io.out(
        `${file}: ${report.results.length} mutants (${[...byOperator].map(([op, n]) => `${n} ${op}`).join(', ')}) in ${Math.round(report.ms)} ms`,
      );
      io.out(
        `killed ${report.killed}, rejected by validation ${report.rejected}, equivalent ${report.equivalent}, survived ${report.survived}: mutation score ${report.score}%`,
      );
      const shown = report.results.filter((r) => values.all || r.status === 'survived' || r.status === 'equivalent');
      if (shown.length) io.out(shown.map(line).join('\n'));
      if (report.survived)
        io.out(
          'A surviving mutant means an invariant is missing, or the mutant is equivalent and belongs in src/testing/equivalentMutants.ts with the reason.',
        );
    }
    return report.survived ? 1 : 0;
  },
};
