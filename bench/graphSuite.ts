import { checkInvariants } from '../src/testing/checkInvariants.js';
import { exploreMachine, type MachineGraph } from '../src/testing/exploreMachine.js';
import { generateMutants, runMutants, tryMutant } from '../src/testing/mutate.js';
import { generatePlans } from '../src/testing/paths.js';
import { parseMachineDefinition } from '../src/safety/safetyMachineDefinition.js';
import { safetyMachine, safetyMachineDefinition } from '../src/safety/safetyMachine.js';
import { makeFigure, ratioText, timeOnce, type Figure } from './measure.js';

export interface GraphSizes {
  /** Runs of the check and path generation. */
  runs: number;
  /** Runs of the full mutation run (the slowest figure here). */
  mutationRuns: number;
  /** Depth of the simple paths. */
  simpleDepth: number;
  /** Try only the first N mutants (tiny runs); undefined: all of them. */
  mutants?: number;
}

/** The baseline for path generation: a bare breadth-first walk over the same graph's edges. */
function bareBfs(graph: MachineGraph): number {
  const seen = new Set<string>(graph.initial);
  const queue = [...graph.initial];
  for (let i = 0; i < queue.length; i++) {
    for (const index of graph.outgoing.get(queue[i]!) ?? []) {
      const to = graph.edges[index]!.to;
      if (!seen.has(to)) {
        seen.add(to);
        queue.push(to);
      }
    }
  }
  return seen.size;
}

/** CPU milliseconds this process used since `from` (all its threads): what the work costs whatever else runs. */
const cpuMs = (from: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
};

const ms = timeOnce;

/**
 * Part 4: graph work on the shipped machine, with src/mbt's own functions:
 * the exhaustive invariant check (explore every configuration, check every
 * edge), path generation (shortest and simple), and the full mutation run.
 */
export function graphFigures({
  runs = 3,
  mutationRuns = 2,
  simpleDepth = 3,
  mutants,
}: Partial<GraphSizes> = {}): Figure[] {
  const explore: number[] = [];
  const check: number[] = [];
  const shortest: number[] = [];
  const simple: number[] = [];
  const bfs: number[] = [];
  const total: number[] = [];
  const exploreCpu: number[] = [];
  const totalCpu: number[] = [];
  let figures = { configurations: 0, edges: 0, violations: 0, shortest: 0, simple: 0 };
  for (let i = 0; i < runs; i++) {
    let graph!: MachineGraph;
    const cpu0 = process.cpuUsage();
    const e = ms(() => (graph = exploreMachine(safetyMachine)));
    exploreCpu.push(cpuMs(cpu0));
    let violations = 0;
    const c = ms(() => (violations = checkInvariants(graph).violations.length));
    let nShortest = 0;
    let nSimple = 0;
    const s = ms(() => (nShortest = generatePlans(graph, 'shortest').length));
    const p = ms(() => (nSimple = generatePlans(graph, 'simple', simpleDepth).length));
    totalCpu.push(cpuMs(cpu0));
    bfs.push(ms(() => bareBfs(graph)));
    explore.push(e);
    check.push(e + c);
    shortest.push(s);
    simple.push(p);
    total.push(e + c + s + p);
    figures = {
      configurations: graph.configurations.size,
      edges: graph.edges.length,
      violations,
      shortest: nShortest,
      simple: nSimple,
    };
  }
  if (figures.violations > 0) throw new Error(`the shipped machine violates ${figures.violations} invariants`);

  const def = parseMachineDefinition(safetyMachineDefinition);
  const mutation: number[] = [];
  let report: ReturnType<typeof runMutants> | undefined;
  for (let i = 0; i < mutationRuns; i++) {
    mutation.push(
      ms(() => {
        if (mutants === undefined) report = runMutants(def);
        else for (const m of generateMutants(def).slice(0, mutants)) tryMutant(m);
      }),
    );
  }
  const graphNote = `${figures.configurations} configurations, ${figures.edges.toLocaleString('en-US')} edges`;
  const bfsBaseline = {
    name: 'bare BFS over the same graph',
    runs: bfs,
    describe: (x: number) => ratioText(x, 'longer'),
  };
  return [
    makeFigure({
      suite: 'graph',
      name: 'exhaustive invariant check',
      unit: 'ms',
      better: 'lower',
      runs: check,
      baseline: {
        name: 'exploration alone (exploreMachine)',
        runs: explore,
        describe: (x) => ratioText(x, 'longer'),
      },
      note: `explore + checkInvariants, ${graphNote}, 0 violations`,
    }),
    makeFigure({
      suite: 'graph',
      name: 'path generation, shortest',
      unit: 'ms',
      better: 'lower',
      runs: shortest,
      baseline: bfsBaseline,
      note: `${figures.shortest} plans, from the explored graph`,
    }),
    makeFigure({
      suite: 'graph',
      name: `path generation, simple (depth ${simpleDepth})`,
      unit: 'ms',
      better: 'lower',
      runs: simple,
      baseline: bfsBaseline,
      note: `${figures.simple} plans, from the explored graph`,
    }),
    makeFigure({
      suite: 'graph',
      name: 'check + path generation',
      unit: 'ms',
      better: 'lower',
      runs: total,
      baseline: {
        name: 'exploration alone (exploreMachine)',
        runs: explore,
        describe: (x) => ratioText(x, 'longer'),
      },
      target: { text: '< 2,000 ms', test: (s) => s.median < 2000 },
      note: 'explore + check + shortest + simple paths, one fresh exploration per run, wall clock',
    }),
    makeFigure({
      suite: 'graph',
      name: 'check + path generation, CPU time',
      unit: 'ms CPU',
      better: 'lower',
      runs: totalCpu,
      baseline: {
        name: 'exploration alone (exploreMachine), CPU time',
        runs: exploreCpu,
        describe: (x) => ratioText(x, 'longer'),
      },
      target: { text: '< 2,000 ms', test: (s) => s.median < 2000 },
      note: 'the same work in CPU time of the process: about what it takes on an idle machine (the wall clock above grows when other processes share the cores)',
    }),
    makeFigure({
      suite: 'graph',
      name: mutants === undefined ? 'full mutation run' : `mutation run (first ${mutants} mutants)`,
      unit: 'ms',
      better: 'lower',
      runs: mutation,
      baseline: {
        name: 'one exhaustive invariant check',
        runs: check,
        describe: (x) => ratioText(x, 'one check'),
      },
      note: report
        ? `${report.results.length} mutants, ${report.killed} killed, ${report.rejected} rejected, ${report.equivalent} equivalent, ${report.survived} survived: score ${report.score}%`
        : `the first ${mutants} mutants only`,
    }),
  ];
}
