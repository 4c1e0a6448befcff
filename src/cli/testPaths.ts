import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { definitionOf } from '../safety/createSafetyMachine.js';
import { CoverageTracker, formatFigure } from '../testing/coverage.js';
import { exploreMachine } from '../testing/exploreMachine.js';
import { plansToJUnit } from '../testing/formatPlans.js';
import { shortestPlans, simplePlans } from '../testing/paths.js';
import { runPlan } from '../testing/runPlan.js';
import { safetyMachine } from '../safety/safetyMachine.js';
import { UsageError, type Command } from './Command.js';
import { loadMachineFile } from './loadMachineFile.js';
import { parseDepth } from './paths.js';

export const testPathsCommand: Command = {
  name: 'test-paths',
  summary: 'run the generated paths against SafetySession; JUnit XML for CI',
  usage: `assistant-safety test-paths [--junit FILE] [--depth N] [--machine FILE]

Generates the shortest paths (to every configuration, and through every
transition and guard outcome) and the simple paths of --depth steps (default 3)
from the shipped machine, runs each against a real SafetySession with a
deterministic clock, and compares state, decision, reason code and flags at
every step. Prints coverage of states, transitions and guard outcomes.

  --junit FILE    also write JUnit XML, one testcase a path
  --machine FILE  generate the paths from this machine (the model) instead; they
                  still run against SafetySession with the shipped machine, so
                  every place where the two disagree fails a path

Exit codes: 0 every path passes and coverage is 100%, 1 a path fails or
coverage is short, 2 bad arguments.`,
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { junit: { type: 'string' }, depth: { type: 'string' }, machine: { type: 'string' } },
    });
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const depth = parseDepth(values.depth, 3);
    const model = values.machine === undefined ? safetyMachine : loadMachineFile(values.machine, io);
    if (!model) return 2;
    const started = performance.now();
    const graph = exploreMachine(model);
    const plans = [...shortestPlans(graph), ...simplePlans(graph, depth)];
    const generatedMs = performance.now() - started;
    const tracker = new CoverageTracker(definitionOf(model)!);
    const results = plans.map((plan) => {
      const result = runPlan(plan);
      for (const o of result.observed)
        for (const step of o.steps)
          tracker.step(String(step.before.value), step.before.context, step.event, String(step.after.value));
      return result;
    });
    const failed = results.filter((r) => !r.ok);
    const coverage = tracker.report();
    const full = [coverage.states, coverage.transitions, coverage.guardOutcomes].every((f) => f.missing.length === 0);
    const ranMs = results.reduce((sum, r) => sum + r.ms, 0);
    io.out(
      `${plans.length} paths (${plans.length - results.filter((r) => r.plan.strategy === 'simple').length} shortest/coverage, ${results.filter((r) => r.plan.strategy === 'simple').length} simple of depth ${depth}) over ${graph.configurations.size} configurations, ${graph.edges.length} edges: generated in ${Math.round(generatedMs)} ms, run in ${Math.round(ranMs)} ms`,
    );
    io.out(`${results.length - failed.length} passed, ${failed.length} failed`);
    for (const r of failed.slice(0, 20)) io.out(`  ✗ ${r.plan.name}\n    ${r.failure}`);
    if (failed.length > 20) io.out(`  ... and ${failed.length - 20} more`);
    io.out(formatFigure('states', coverage.states));
    io.out(formatFigure('transitions', coverage.transitions));
    io.out(formatFigure('guard outcomes', coverage.guardOutcomes));
    if (values.junit !== undefined) {
      try {
        mkdirSync(dirname(values.junit), { recursive: true });
        writeFileSync(values.junit, plansToJUnit(plans, 'assistant-safety generated paths', results));
      } catch (e) {
        io.err(`test-paths: cannot write ${values.junit}: ${(e as Error).message}`);
        return 2;
      }
      io.out(`JUnit XML: ${values.junit}`);
    }
    return failed.length === 0 && full ? 0 : 1;
  },
};
