import { parseArgs } from 'node:util';
import { checkInvariants, formatViolation } from '../testing/checkInvariants.js';
import { exploreMachine } from '../testing/exploreMachine.js';
import { UsageError, type Command } from './Command.js';
import { loadMachineFile } from './loadMachineFile.js';
import { defaultMachinePath } from '../node/packageRoot.js';

export const checkCommand: Command = {
  name: 'check',
  summary: 'check every invariant on every edge of the machine graph',
  usage: `assistant-safety check [--machine FILE] [--json]

Explores every configuration the machine (default: the shipped
machines/assistant-safety.json, read now) can reach, checks every edge against
every invariant (I1...), and prints each violated invariant with a shortest
counterexample as a list of steps.

Exit codes: 0 every invariant holds, 1 an invariant fails, 2 a malformed machine file.`,
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { machine: { type: 'string' }, json: { type: 'boolean' } },
    });
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const file = values.machine ?? defaultMachinePath();
    const machine = loadMachineFile(file, io);
    if (!machine) return 2;
    const graph = exploreMachine(machine);
    const result = checkInvariants(graph);
    if (values.json) {
      io.out(
        JSON.stringify(
          {
            machine: file,
            configurations: result.configurations,
            edges: result.edges,
            invariants: result.invariants,
            exploreMs: Math.round(graph.ms),
            checkMs: Math.round(result.ms),
            violations: result.violations.map((v) => ({
              id: v.invariant.id,
              name: v.invariant.name,
              message: v.message,
              edges: v.edges,
              steps: v.path.map((e) => ({
                from: e.before.value,
                move: e.label,
                decision: e.decision,
                to: e.after.value,
              })),
            })),
          },
          null,
          2,
        ),
      );
    } else {
      io.out(
        `${file}: ${result.configurations} configurations, ${result.edges} edges, ${result.invariants} invariants, ${result.checks} checks (explored in ${Math.round(graph.ms)} ms, checked in ${Math.round(result.ms)} ms)`,
      );
      if (result.violations.length === 0) io.out(`every invariant holds on every edge`);
      else {
        io.out(`${result.violations.length} invariant${result.violations.length === 1 ? '' : 's'} violated:\n`);
        io.out(result.violations.map(formatViolation).join('\n\n'));
      }
    }
    return result.violations.length ? 1 : 0;
  },
};
