import { parseArgs } from 'node:util';
import { checkInvariants, formatViolation } from '../testing/checkInvariants.js';
import { exploreMachine } from '../testing/exploreMachine.js';
import type { SafetyMachine } from '../safety/createSafetyMachine.js';
import { checkKindInvariants } from '../testing/checkKindInvariants.js';
import { exploreKind } from '../testing/exploreKind.js';
import { UsageError, type CliIO, type Command } from './Command.js';
import { KIND_USAGE, loadKindMachineFile, type KindMachineFile } from './loadMachineFile.js';
import { defaultMachinePath } from '../node/packageRoot.js';

export const checkCommand: Command = {
  name: 'check',
  summary: 'check every invariant on every edge of the machine graph',
  usage: `assistant-safety check [FILE | --machine FILE] [--kind safety|patrol] [--json]

Explores every configuration the machine (default: the shipped
machines/assistant-safety.json, read now) can reach, checks every edge against
every invariant of its kind (I1... for the safety machine, P1... for Patrol's
machines/patrol.json), and prints each violated invariant with a shortest
counterexample as a list of steps.

${KIND_USAGE}

Exit codes: 0 every invariant holds, 1 an invariant fails, 2 a malformed machine file.`,
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { machine: { type: 'string' }, kind: { type: 'string' }, json: { type: 'boolean' } },
    });
    const file = machineFileArgument(positionals, values.machine) ?? defaultMachinePath();
    const loaded = loadKindMachineFile(file, io, values.kind);
    if (!loaded) return 2;
    if (loaded.kindName !== 'safety') return checkOtherKind(file, loaded, values.json === true, io);
    const machine = loaded.machine as SafetyMachine;
    const graph = exploreMachine(machine);
    const result = checkInvariants(graph);
    // No invariant can fail in a state nothing reaches: a state left unreachable by an edit is said, not passed.
    const reached = new Set([...graph.configurations.values()].map((c) => String(c.state)));
    const unreached = Object.keys(loaded.definition.states).filter((s) => !reached.has(s));
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
            unreachedStates: unreached,
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
      for (const state of unreached)
        io.out(`warning: state ${state} is never reached (no transition leads to it): no invariant is checked there`);
      if (result.violations.length === 0) io.out(`every invariant holds on every edge`);
      else {
        io.out(`${result.violations.length} invariant${result.violations.length === 1 ? '' : 's'} violated:\n`);
        io.out(result.violations.map(formatViolation).join('\n\n'));
      }
    }
    return result.violations.length ? 1 : 0;
  },
};

/** The machine file of `check`, `paths` and `mutate`: one positional argument, or `--machine`. */
export function machineFileArgument(positionals: string[], machine: string | undefined): string | undefined {
  if (positionals.length > 1 || (positionals.length === 1 && machine !== undefined))
    throw new UsageError(`unexpected argument "${positionals[machine === undefined ? 1 : 0]}"`);
  return positionals[0] ?? machine;
}

/** `check` on a machine of another kind than the safety machine: the generic explorer and checker. */
function checkOtherKind(file: string, loaded: KindMachineFile, json: boolean, io: CliIO): number {
  const graph = exploreKind(loaded.machine, loaded.testing.exploration());
  const result = checkKindInvariants(graph, loaded.testing);
  if (json) {
    io.out(
      JSON.stringify(
        {
          machine: file,
          kind: loaded.kindName,
          configurations: result.configurations,
          edges: result.edges,
          invariants: result.invariants,
          exploreMs: Math.round(graph.ms),
          checkMs: Math.round(result.ms),
          violations: result.violations.map((v) => ({
            id: v.invariant.id,
            name: v.invariant.name,
            message: v.message,
            count: v.count,
            steps: v.path.map((e) => ({ from: e.before.value, move: e.label, to: e.after.value })),
          })),
        },
        null,
        2,
      ),
    );
  } else {
    io.out(
      `${file} (${loaded.kindName}): ${result.configurations} configurations, ${result.edges} edges, ${result.invariants} invariants, ${result.checks} checks (explored in ${Math.round(graph.ms)} ms, checked in ${Math.round(result.ms)} ms)`,
    );
    if (result.violations.length === 0) io.out('every invariant holds on every edge');
    else {
      io.out(`${result.violations.length} invariant${result.violations.length === 1 ? '' : 's'} violated:\n`);
      for (const v of result.violations) {
        io.out(`✗ ${v.invariant.id} ${v.invariant.name}\n  Rule: ${v.invariant.sentence}`);
        if (v.path.length) {
          io.out(`  Counterexample (${v.path.length} step${v.path.length === 1 ? '' : 's'} from the start):`);
          v.path.forEach((e, i) =>
            io.out(`    ${i + 1}. ${String(e.before.value)} · ${e.label} ⇒ ${String(e.after.value)}`),
          );
        }
        io.out(`  ${v.path.length ? `Broken at step ${v.path.length}` : 'Broken'}: ${v.message}.\n`);
      }
    }
  }
  return result.violations.length ? 1 : 0;
}
