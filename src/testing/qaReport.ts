import type { MachineDefinition } from '../core/MachineDefinition.js';
import type { CheckResult } from './checkInvariants.js';
import { CoverageTracker, formatFigure, resolveTransition, transitionsOf, type Coverage } from './coverage.js';
import type { MachineGraph } from './exploreMachine.js';
import { expectText } from './formatPlans.js';
import type { MutationReport } from './mutate.js';
import type { PathPlan } from './paths.js';
import { runPlan } from './runPlan.js';

/*
 * The QA report of the generated paths: what a QA lead opens first. A summary
 * (coverage of states, transitions and guard outcomes, the invariants, the
 * mutation score), then the paths grouped by the state and the transition
 * each ends by covering, so a reviewer reads "every way into VERIFYING's
 * CHECK_TOOL [isWrite]" in one place. Written as Markdown or as one
 * self-contained HTML file (no network: inline style, inline script, inline
 * SVG). The coverage is measured the way `test-paths` measures it: every path
 * runs against a real SafetySession and the steps feed a CoverageTracker.
 */

/** One path of the report, as run. */
interface ReportPath {
  /** 1-based, in generation order. */
  number: number;
  name: string;
  strategy: PathPlan['strategy'];
  ok: boolean;
  failure?: string;
  start: string;
  steps: Array<{ label: string; expect: string; state: string; decision: 'allowed' | 'blocked' | null }>;
}

/** The paths that end by taking one transition (or none). */
interface ReportTransitionGroup {
  /** The transition's id in the machine index (`RESOLVING.CHECK_TOOL[0]`), or `none`. */
  id: string;
  /** `CHECK_TOOL [isWrite] → stays` */
  label: string;
  description: string;
  paths: ReportPath[];
}

/** The paths whose last step starts in one state, by transition. */
interface ReportStateGroup {
  state: string;
  transitions: ReportTransitionGroup[];
}

export interface QaReport {
  machine: string;
  machineId: string;
  strategy: string;
  depth?: number;
  configurations: number;
  edges: number;
  generatedMs: number;
  ranMs: number;
  paths: number;
  passed: number;
  failed: Array<{ number: number; name: string; failure: string }>;
  coverage: Coverage;
  /** The coverage lines exactly as `test-paths` prints them. */
  coverageLines: { states: string; transitions: string; guardOutcomes: string };
  invariants: { total: number; checks: number; violated: Array<{ id: string; name: string; message: string }> };
  /** Absent when the mutants were not run (`--skip-mutants`). */
  mutation?: Pick<MutationReport, 'killed' | 'rejected' | 'equivalent' | 'survived' | 'score'> & { mutants: number };
  groups: ReportStateGroup[];
}

export interface QaReportInput {
  /** The machine file the plans come from, as named to the user. */
  file: string;
  definition: MachineDefinition;
  graph: MachineGraph;
  plans: PathPlan[];
  strategy: string;
  depth?: number;
  generatedMs: number;
  check: CheckResult;
  mutation?: MutationReport;
}

const NONE = 'none';

/**
 * Runs the plans against SafetySession, measures coverage as `test-paths`
 * does, and groups the paths by the state and transition of their last step.
 *
 * @example
 * const graph = exploreMachine(safetyMachine);
 * const report = buildQaReport({ file, definition, graph, plans: shortestPlans(graph), strategy: 'shortest',
 *   generatedMs: 0, check: checkInvariants(graph) });
 * writeFileSync('paths.html', qaReportToHtml(report));
 */
export function buildQaReport(input: QaReportInput): QaReport {
  const { definition: def } = input;
  const transitions = transitionsOf(def);
  const byId = new Map(transitions.map((t) => [t.id, t]));
  const tracker = new CoverageTracker(def);
  const groups = new Map<string, Map<string, ReportPath[]>>();
  const failed: QaReport['failed'] = [];
  let ranMs = 0;
  input.plans.forEach((plan, i) => {
    const result = runPlan(plan);
    ranMs += result.ms;
    for (const o of result.observed)
      for (const step of o.steps)
        tracker.step(String(step.before.value), step.before.context, step.event, String(step.after.value));
    const last = result.observed.at(-1)?.step;
    const taken = last
      ? resolveTransition(def, String(last.before.value), last.before.context, last.event, transitions).taken
      : undefined;
    const state = last ? String(last.before.value) : String(def.initial);
    const path: ReportPath = {
      number: i + 1,
      name: plan.name,
      strategy: plan.strategy,
      ok: result.ok,
      ...(result.failure !== undefined && { failure: result.failure }),
      start: String(result.observed[0]?.step.before.value ?? def.initial),
      steps: plan.steps.map((s) => ({
        label: s.label,
        expect: expectText(s),
        state: s.expect.state,
        decision: s.expect.decision,
      })),
    };
    if (!result.ok) failed.push({ number: i + 1, name: plan.name, failure: result.failure ?? 'failed' });
    const key = taken?.id ?? NONE;
    const inState = groups.get(state) ?? new Map<string, ReportPath[]>();
    groups.set(state, inState);
    inState.set(key, [...(inState.get(key) ?? []), path]);
  });
  const coverage = tracker.report();
  const stateOrder = Object.keys(def.states);
  const transitionOrder = (id: string) => (id === NONE ? Infinity : transitions.findIndex((t) => t.id === id));
  return {
    machine: input.file,
    machineId: def.id,
    strategy: input.strategy,
    ...(input.depth !== undefined && { depth: input.depth }),
    configurations: input.graph.configurations.size,
    edges: input.graph.edges.length,
    generatedMs: input.generatedMs,
    ranMs,
    paths: input.plans.length,
    passed: input.plans.length - failed.length,
    failed,
    coverage,
    coverageLines: {
      states: formatFigure('states', coverage.states),
      transitions: formatFigure('transitions', coverage.transitions),
      guardOutcomes: formatFigure('guard outcomes', coverage.guardOutcomes),
    },
    invariants: {
      total: input.check.invariants,
      checks: input.check.checks,
      violated: input.check.violations.map((v) => ({
        id: v.invariant.id,
        name: v.invariant.name,
        message: v.message,
      })),
    },
    ...(input.mutation && {
      mutation: {
        mutants: input.mutation.results.length,
        killed: input.mutation.killed,
        rejected: input.mutation.rejected,
        equivalent: input.mutation.equivalent,
        survived: input.mutation.survived,
        score: input.mutation.score,
      },
    }),
    groups: [...groups]
      .sort(([a], [b]) => stateOrder.indexOf(a) - stateOrder.indexOf(b))
      .map(([state, inState]) => ({
        state,
        transitions: [...inState]
          .sort(([a], [b]) => transitionOrder(a) - transitionOrder(b))
          .map(([id, paths]) => {
            const t = byId.get(id);
            return {
              id,
              label: t
                ? `${t.source === null ? 'any state: ' : ''}${t.event}${t.guard ? ` [${t.guard}]` : ''} → ${t.target ?? 'stays'}`
                : 'no transition (the call changes nothing)',
              description: t?.description ?? 'No transition of the machine handles the last call here.',
              paths,
            };
          }),
      })),
  };
}

const pct = (covered: number, total: number) => (total === 0 ? 100 : Math.round((1000 * covered) / total) / 10);
const anchor = (id: string) => id.replace(/[^A-Za-z0-9_-]+/g, '-');

/**
 * The report as Markdown: the summary, a table of contents, then the paths by
 * state and transition, each path a `<details>` fold.
 *
 * @example
 * writeFileSync('paths.md', qaReportToMarkdown(buildQaReport(input)));
 */
export function qaReportToMarkdown(r: QaReport): string {
  const lines: string[] = [`# QA report: ${r.machineId} (${r.machine})`, '', '## Summary', ''];
  lines.push(...summaryRows(r).map(([k, v]) => `- **${k}**: ${v}`), '');
  if (r.failed.length) {
    lines.push('### Failed paths', '');
    for (const f of r.failed) lines.push(`- ${f.number}. ${f.name}: ${f.failure}`);
    lines.push('');
  }
  lines.push('## Contents', '');
  for (const g of r.groups) {
    lines.push(`- [${g.state}](#${anchor(`state-${g.state}`)}) (${count(g)} paths)`);
    for (const t of g.transitions) lines.push(`  - [${t.label}](#${anchor(`${g.state}-${t.id}`)}) (${t.paths.length})`);
  }
  lines.push('');
  for (const g of r.groups) {
    lines.push(`<a id="${anchor(`state-${g.state}`)}"></a>`, '', `## ${g.state}`, '');
    for (const t of g.transitions) {
      lines.push(`<a id="${anchor(`${g.state}-${t.id}`)}"></a>`, '', `### ${t.label}`, '');
      lines.push(`${t.description} (\`${t.id}\`, ${t.paths.length} path${t.paths.length === 1 ? '' : 's'})`, '');
      for (const p of t.paths) {
        lines.push(`<details><summary>${p.number}. ${escapeHtml(p.name)}${p.ok ? '' : ' ✗'}</summary>`, '');
        p.steps.forEach((s, j) => lines.push(`${j + 1}. ${s.label} → ${s.expect}`));
        if (!p.ok) lines.push('', `**Failed**: ${p.failure}`);
        lines.push('', '</details>', '');
      }
    }
  }
  return lines.join('\n');
}

const count = (g: ReportStateGroup) => g.transitions.reduce((n, t) => n + t.paths.length, 0);

/** The summary as label/value pairs (shared by both formats). */
function summaryRows(r: QaReport): Array<[string, string]> {
  const m = r.mutation;
  return [
    [
      'Paths',
      `${r.paths} (${r.strategy}${r.depth !== undefined ? `, depth ${r.depth}` : ''}) over ${r.configurations} configurations and ${r.edges} edges; ${r.passed} passed, ${r.failed.length} failed against SafetySession`,
    ],
    ['States', figureText(r.coverage.states)],
    ['Transitions', figureText(r.coverage.transitions)],
    ['Guard outcomes', figureText(r.coverage.guardOutcomes)],
    [
      'Invariants',
      r.invariants.violated.length === 0
        ? `all ${r.invariants.total} hold on every edge (${r.invariants.checks} checks)`
        : `${r.invariants.violated.length} of ${r.invariants.total} violated: ${r.invariants.violated.map((v) => v.id).join(', ')}`,
    ],
    [
      'Mutation score',
      m
        ? `${m.score}% (${m.mutants} mutants: ${m.killed} killed, ${m.rejected} rejected by validation, ${m.equivalent} equivalent, ${m.survived} survived)`
        : 'not run (--skip-mutants)',
    ],
  ];
}

const figureText = (f: { covered: number; total: number; missing: string[] }) =>
  `${f.covered}/${f.total} (${pct(f.covered, f.total)}%)${f.missing.length ? `, missing ${f.missing.join('; ')}` : ''}`;

const escapeHtml = (s: string) =>
  s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);

/** Keeps `</script>` and friends out of inline JSON. */
const inlineJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The report as one self-contained HTML file: the summary with coverage
 * bars, a table of contents, and the paths by state and transition, each a
 * `<details>` that draws the path (states down the left, each call and its
 * outcome beside the arrow) as inline SVG when opened. Nothing is fetched.
 *
 * @example
 * writeFileSync('paths.html', qaReportToHtml(buildQaReport(input)));
 */
export function qaReportToHtml(r: QaReport): string {
  const figure = (key: string, name: string, f: { covered: number; total: number; missing: string[] }) => `
    <div class="figure" data-figure="${key}">
      <div class="figure-name">${name}</div>
      <div class="bar"><span style="width:${pct(f.covered, f.total)}%"></span></div>
      <div class="figure-value"><strong>${f.covered}/${f.total}</strong> (${pct(f.covered, f.total)}%)</div>
      ${f.missing.length ? `<div class="missing">missing: ${f.missing.map(escapeHtml).join('; ')}</div>` : ''}
    </div>`;
  const m = r.mutation;
  const paths = r.groups.flatMap((g) => g.transitions.flatMap((t) => t.paths));
  const data = Object.fromEntries(paths.map((p) => [p.number, { start: p.start, steps: p.steps }]));
  const toc = r.groups
    .map(
      (
        g,
      ) => `<li><a href="#${anchor(`state-${g.state}`)}">${escapeHtml(g.state)}</a> <span class="muted">${count(g)}</span>
        <ul>${g.transitions
          .map(
            (t) =>
              `<li><a href="#${anchor(`${g.state}-${t.id}`)}">${escapeHtml(t.label)}</a> <span class="muted">${t.paths.length}</span></li>`,
          )
          .join('')}</ul></li>`,
    )
    .join('');
  const sections = r.groups
    .map(
      (g) => `
  <section class="state" id="${anchor(`state-${g.state}`)}">
    <h2>${escapeHtml(g.state)} <span class="muted">${count(g)} paths</span></h2>
    ${g.transitions
      .map(
        (t) => `
    <details class="transition" id="${anchor(`${g.state}-${t.id}`)}" data-transition="${escapeHtml(t.id)}">
      <summary><span class="label">${escapeHtml(t.label)}</span> <span class="muted">${t.paths.length} path${t.paths.length === 1 ? '' : 's'} · <code>${escapeHtml(t.id)}</code></span></summary>
      <p class="muted">${escapeHtml(t.description)}</p>
      ${t.paths
        .map(
          (p) => `
      <details class="path${p.ok ? '' : ' failed'}" data-path="${p.number}">
        <summary>${p.number}. ${escapeHtml(p.name)}${p.ok ? '' : ' <strong class="bad">✗ failed</strong>'}</summary>
        <div class="drawing"></div>
        <ol>${p.steps.map((s) => `<li>${escapeHtml(s.label)} → ${escapeHtml(s.expect)}</li>`).join('')}</ol>
        ${p.ok ? '' : `<p class="bad">${escapeHtml(p.failure ?? '')}</p>`}
      </details>`,
        )
        .join('')}
    </details>`,
      )
      .join('')}
  </section>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>QA report: ${escapeHtml(r.machineId)}</title>
<style>
  body { font: 14px/1.45 system-ui, 'DejaVu Sans', sans-serif; color: #1d2330; margin: 0; background: #f7f8fa; }
  header { background: #fff; border-bottom: 1px solid #d5dae3; padding: 14px 24px; }
  h1 { font-size: 20px; margin: 0 0 2px; }
  h2 { font-size: 17px; margin: 22px 0 8px; }
  main { display: grid; grid-template-columns: minmax(220px, 300px) minmax(0, 1fr); gap: 20px; padding: 16px 24px; }
  nav { position: sticky; top: 8px; align-self: start; max-height: calc(100vh - 16px); overflow: auto; font-size: 13px; }
  nav ul { padding-left: 16px; margin: 4px 0; }
  .muted { color: #6b7385; font-weight: 400; }
  .summary { display: grid; grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); gap: 10px; }
  .figure { background: #fff; border: 1px solid #d5dae3; border-radius: 8px; padding: 10px 12px; }
  .figure-name { font-weight: 600; }
  .figure-value { font-size: 18px; }
  .bar { height: 8px; background: #eef0f4; border-radius: 4px; margin: 6px 0; overflow: hidden; }
  .bar span { display: block; height: 100%; background: #16a34a; }
  .missing, .bad { color: #c62828; }
  details { background: #fff; border: 1px solid #e2e6ee; border-radius: 6px; margin: 6px 0; padding: 4px 10px; }
  details.path { margin-left: 14px; border-color: #eef0f4; }
  details.failed { border-color: #f0b4b4; }
  summary { cursor: pointer; }
  .transition > summary .label { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-weight: 600; }
  code, ol { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 12px; }
  .drawing svg { display: block; margin: 6px 0; }
  .drawing text { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 12px; }
</style>
</head>
<body>
<header>
  <h1>QA report: ${escapeHtml(r.machineId)}</h1>
  <div class="muted">${escapeHtml(r.machine)} · ${r.paths} paths (${escapeHtml(r.strategy)}${r.depth !== undefined ? `, depth ${r.depth}` : ''}) over ${r.configurations} configurations and ${r.edges} edges · generated in ${Math.round(r.generatedMs)} ms, run in ${Math.round(r.ranMs)} ms</div>
</header>
<main>
<nav aria-label="contents"><strong>Contents</strong><ul><li><a href="#summary">Summary</a></li>${toc}</ul></nav>
<div>
  <section id="summary">
    <h2>Summary</h2>
    <div class="summary">
      <div class="figure" data-figure="paths"><div class="figure-name">Paths run against SafetySession</div>
        <div class="figure-value"><strong>${r.passed}</strong> passed, <strong${r.failed.length ? ' class="bad"' : ''}>${r.failed.length}</strong> failed</div></div>
      ${figure('states', 'States', r.coverage.states)}
      ${figure('transitions', 'Transitions', r.coverage.transitions)}
      ${figure('guard-outcomes', 'Guard outcomes', r.coverage.guardOutcomes)}
      <div class="figure" data-figure="invariants"><div class="figure-name">Invariants</div>
        <div class="figure-value">${
          r.invariants.violated.length === 0
            ? `<strong>${r.invariants.total}/${r.invariants.total}</strong> hold`
            : `<strong class="bad">${r.invariants.violated.length}</strong> of ${r.invariants.total} violated`
        }</div>
        <div class="muted">${r.invariants.checks} edge × invariant checks</div>
        ${r.invariants.violated.map((v) => `<div class="bad">${escapeHtml(v.id)} ${escapeHtml(v.name)}: ${escapeHtml(v.message)}</div>`).join('')}</div>
      <div class="figure" data-figure="mutation"><div class="figure-name">Mutation score</div>
        ${
          m
            ? `<div class="bar"><span style="width:${m.score}%"></span></div><div class="figure-value"><strong>${m.score}%</strong></div>
        <div class="muted">${m.mutants} mutants: ${m.killed} killed, ${m.rejected} rejected, ${m.equivalent} equivalent, ${m.survived} survived</div>`
            : '<div class="muted">not run (--skip-mutants)</div>'
        }</div>
    </div>
    ${
      r.failed.length
        ? `<h3 class="bad">Failed paths</h3><ul>${r.failed.map((f) => `<li>${f.number}. ${escapeHtml(f.name)}: ${escapeHtml(f.failure)}</li>`).join('')}</ul>`
        : ''
    }
    <p class="muted">Paths are grouped by the state their last call is made in and the transition it takes. Open a path to see it drawn.</p>
  </section>
  ${sections}
</div>
</main>
<script type="application/json" id="paths">${inlineJson(data)}</script>
<script>
(() => {
  const paths = JSON.parse(document.getElementById('paths').textContent);
  const NS = 'http://www.w3.org/2000/svg';
  const el = (name, attrs, text) => {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  };
  // A path drawn top to bottom: the state after each call in a box, the call and its outcome beside the arrow.
  const draw = (p) => {
    const ROW = 46, BOX_W = 120, BOX_H = 24, X = 8;
    const states = [p.start, ...p.steps.map((s) => s.state)];
    const width = 640, height = states.length * ROW;
    const svg = el('svg', { width, height, viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-label': 'path drawing' });
    states.forEach((state, i) => {
      const y = i * ROW + 2;
      if (i > 0) {
        const step = p.steps[i - 1];
        const color = step.decision === 'blocked' ? '#c62828' : '#2563eb';
        svg.append(el('line', { x1: X + BOX_W / 2, y1: y - ROW + BOX_H + 2, x2: X + BOX_W / 2, y2: y - 2, stroke: color, 'stroke-width': 2 }));
        svg.append(el('path', { d: 'M' + (X + BOX_W / 2 - 4) + ',' + (y - 8) + ' l4,6 l4,-6 z', fill: color }));
        svg.append(el('text', { x: X + BOX_W / 2 + 12, y: y - ROW / 2 + 12, fill: color }, step.label + (step.decision === 'blocked' ? '  (refused)' : '')));
      }
      svg.append(el('rect', { x: X, y, width: BOX_W, height: BOX_H, rx: 6, fill: i === states.length - 1 ? '#e4edff' : '#fff', stroke: '#8190a8' }));
      svg.append(el('text', { x: X + 10, y: y + 16, 'font-weight': 700 }, state));
    });
    return svg;
  };
  // A link from the contents opens the group it points at.
  const openTarget = () => {
    const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target instanceof HTMLDetailsElement) target.open = true;
  };
  window.addEventListener('hashchange', openTarget);
  openTarget();
  document.addEventListener('toggle', (e) => {
    const d = e.target;
    if (!(d instanceof HTMLDetailsElement) || !d.open || !d.dataset.path) return;
    const box = d.querySelector('.drawing');
    if (box && !box.firstChild) box.append(draw(paths[d.dataset.path]));
  }, true);
})();
</script>
</body>
</html>
`;
}
