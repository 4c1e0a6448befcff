import { mkdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { definitionOf, type SafetyMachine } from '../safety/createSafetyMachine.js';
import { exploreKind } from '../testing/exploreKind.js';
import { kindPlans } from '../testing/kindPaths.js';
import { machineFileArgument } from './check.js';
import { checkInvariants } from '../testing/checkInvariants.js';
import { exploreMachine } from '../testing/exploreMachine.js';
import { plansToJUnit, plansToJson, type PlanFigures } from '../testing/formatPlans.js';
import { runMutants } from '../testing/mutate.js';
import { buildQaReport, qaReportToHtml, qaReportToMarkdown } from '../testing/qaReport.js';
import { generatePlans, type PathStrategy } from '../testing/paths.js';
import { UsageError, type CliIO, type Command } from './Command.js';
import { KIND_USAGE, loadKindMachineFile, type KindMachineFile } from './loadMachineFile.js';
import { defaultMachinePath } from '../node/packageRoot.js';

const FORMATS = { json: 'json', md: 'md', html: 'html', junit: 'xml' } as const;
type Format = keyof typeof FORMATS;

/** Parses `--depth`: a positive integer. */
export function parseDepth(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--depth must be a positive integer, got "${text}"`);
  return n;
}

export const pathsCommand: Command = {
  name: 'paths',
  summary: 'write the generated path plans (json, md, html or junit)',
  usage: `assistant-safety paths [FILE | --machine FILE] [--kind safety|patrol] [--strategy shortest|simple] [--depth N] [--format json|md|html|junit] [--out DIR] [--skip-mutants]

Generates path plans from the machine graph (default machine: the shipped
machines/assistant-safety.json) and writes them to stdout, or to
DIR/paths-<strategy>.<json|md|html|xml> with --out.

${KIND_USAGE}
A machine of another kind than the safety machine (Patrol's) gets the
shortest strategy in json or md: a path to every configuration and one
through each transition or guard outcome those miss, each step an event and
the state after it.

  --strategy shortest  a shortest path to every configuration, plus one through
                       each transition or guard outcome those miss (default)
  --strategy simple    every simple path of --depth steps (default 3)
  --format             json (default, for tools); md or html (for people: a QA
                       report with a summary of coverage, invariants and
                       mutation score, then the paths grouped by the state and
                       transition they cover; html is one self-contained file
                       whose paths are drawn when opened); junit (a test plan:
                       one testcase a path)
  --skip-mutants       md and html: leave out the mutation score (the mutants
                       add about 5 s of CPU time, measured: 4.2 to 4.9 s)

Exit codes: 0 written, 2 bad arguments or a malformed machine file.`,
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        machine: { type: 'string' },
        kind: { type: 'string' },
        strategy: { type: 'string', default: 'shortest' },
        depth: { type: 'string' },
        format: { type: 'string', default: 'json' },
        out: { type: 'string' },
        'skip-mutants': { type: 'boolean' },
      },
    });
    const file = machineFileArgument(positionals, values.machine) ?? defaultMachinePath();
    const strategy = values.strategy as PathStrategy;
    if (strategy !== 'shortest' && strategy !== 'simple')
      throw new UsageError(`--strategy must be shortest or simple, got "${values.strategy}"`);
    const format = values.format as Format;
    if (!Object.hasOwn(FORMATS, format))
      throw new UsageError(`--format must be json, md, html or junit, got "${values.format}"`);
    const depth = parseDepth(values.depth, 3);
    if (values.depth !== undefined && strategy !== 'simple')
      throw new UsageError('--depth applies to --strategy simple only');

    const loaded = loadKindMachineFile(file, io, values.kind);
    if (!loaded) return 2;
    if (loaded.kindName !== 'safety') {
      if (strategy !== 'shortest' || (format !== 'json' && format !== 'md'))
        throw new UsageError(`a ${loaded.kindName} machine has --strategy shortest and --format json or md only`);
      return writeOut(otherKindPlans(file, loaded, format), values.out, `paths-${strategy}.${FORMATS[format]}`, io);
    }
    const machine = loaded.machine as SafetyMachine;
    const started = performance.now();
    const graph = exploreMachine(machine);
    const plans = generatePlans(graph, strategy, depth);
    const figures: PlanFigures = {
      machine: file,
      strategy,
      ...(strategy === 'simple' && { depth }),
      configurations: graph.configurations.size,
      edges: graph.edges.length,
      ms: performance.now() - started,
    };
    const report = () => {
      const definition = definitionOf(machine)!;
      // The machine as the reader knows it: relative to where the command ran, when it is under it.
      const shown = relative(process.cwd(), file);
      return buildQaReport({
        file: shown && !shown.startsWith('..') && !isAbsolute(shown) ? shown : file,
        definition,
        graph,
        plans,
        strategy,
        ...(strategy === 'simple' && { depth }),
        generatedMs: figures.ms,
        check: checkInvariants(graph),
        ...(!values['skip-mutants'] && { mutation: runMutants(definition) }),
      });
    };
    const text =
      format === 'md'
        ? qaReportToMarkdown(report())
        : format === 'html'
          ? qaReportToHtml(report())
          : format === 'junit'
            ? plansToJUnit(plans, `assistant-safety paths (${strategy})`)
            : plansToJson(plans, figures);
    return writeOut(
      {
        text,
        summary: `${plans.length} paths over ${figures.configurations} configurations, ${figures.edges} edges (generated in ${Math.round(figures.ms)} ms)`,
      },
      values.out,
      `paths-${strategy}.${FORMATS[format]}`,
      io,
    );
  },
};

/** Writes a report to stdout, or to DIR/name with a one-line summary. */
function writeOut(report: { text: string; summary: string }, dir: string | undefined, name: string, io: CliIO): number {
  if (dir === undefined) {
    io.out(report.text);
    return 0;
  }
  const target = join(dir, name);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(target, report.text);
  } catch (e) {
    io.err(`paths: cannot write ${target}: ${(e as Error).message}`);
    return 2;
  }
  io.out(`${target}: ${report.summary}`);
  return 0;
}

/** The generic path generator's plans for a machine of another kind, as json or md. */
function otherKindPlans(file: string, loaded: KindMachineFile, format: 'json' | 'md') {
  const started = performance.now();
  const graph = exploreKind(loaded.machine, loaded.testing.exploration());
  const plans = kindPlans(graph, loaded.testing.kind);
  const ms = performance.now() - started;
  const summary = `${plans.length} paths over ${graph.configurations.size} configurations, ${graph.edges.length} edges (generated in ${Math.round(ms)} ms)`;
  const text =
    format === 'json'
      ? JSON.stringify(
          {
            machine: file,
            kind: loaded.kindName,
            strategy: 'shortest',
            configurations: graph.configurations.size,
            edges: graph.edges.length,
            ms: Math.round(ms),
            plans,
          },
          null,
          2,
        )
      : [
          `# Paths: ${loaded.definition.id} (${file})`,
          '',
          `${summary}.`,
          '',
          ...plans.flatMap((p, i) => [
            `## ${i + 1}. ${p.name}`,
            '',
            ...p.steps.map((s, j) => `${j + 1}. ${s.label} ⇒ ${s.state}`),
            '',
          ]),
        ].join('\n');
  return { text, summary };
}
