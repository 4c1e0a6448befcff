import type { PathPlan, PlanStep } from './paths.js';
import type { PlanResult } from './runPlan.js';

/** Figures printed with the plans. */
export interface PlanFigures {
  machine: string;
  strategy: string;
  depth?: number;
  configurations: number;
  edges: number;
  ms: number;
}

const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * What a step must show, in words: `WRITING, allowed`.
 *
 * @example
 * plan.steps.map(expectText); // ['RESOLVING, allowed', ...]
 */
export function expectText(step: PlanStep): string {
  const e = step.expect;
  const parts: string[] = [e.state];
  if (e.decision === 'allowed') parts.push(e.wouldBlock ? `allowed, would refuse ${e.wouldBlock}` : 'allowed');
  if (e.decision === 'blocked') parts.push(`refused ${e.reasonCode}`);
  if (e.wroteThisEpisode) parts.push('wrote');
  if (e.readAfterWrite) parts.push('readAfterWrite');
  return parts.join(', ');
}

/**
 * Plans as a Markdown test plan: one numbered list of steps per path.
 *
 * @example
 * writeFileSync('plans.md', plansToMarkdown(plans, figures)); // what `assistant-safety paths --format md` prints
 */
export function plansToMarkdown(plans: PathPlan[], figures: PlanFigures): string {
  const lines = [
    `# Path plans: ${figures.machine}`,
    '',
    `${plans.length} paths (${figures.strategy}${figures.depth !== undefined ? `, depth ${figures.depth}` : ''}) over ${figures.configurations} configurations and ${figures.edges} edges, generated in ${Math.round(figures.ms)} ms.`,
    'Each step names the move (a session API call) and what the session must show after it: state, decision, flags.',
    '',
  ];
  plans.forEach((plan, i) => {
    lines.push(`## ${i + 1}. ${plan.name}`, '', `Strategy: ${plan.strategy}. Ends in \`${plan.target}\`.`, '');
    plan.steps.forEach((step, j) => lines.push(`${j + 1}. ${step.label} → ${expectText(step)}`));
    lines.push('');
  });
  return lines.join('\n');
}

/**
 * Plans as JSON, for other tools.
 *
 * @example
 * JSON.parse(plansToJson(plans, figures)).paths; // plans.length
 */
export function plansToJson(plans: PathPlan[], figures: PlanFigures): string {
  return JSON.stringify({ ...figures, ms: Math.round(figures.ms), paths: plans.length, plans }, null, 2);
}

/**
 * JUnit XML, one testcase a path. With results, failures are reported;
 * without, the file is a plan (every testcase lists its steps, none has run).
 *
 * @example
 * writeFileSync('out.xml', plansToJUnit(plans, 'assistant-safety', plans.map((p) => runPlan(p))));
 */
export function plansToJUnit(plans: PathPlan[], suite: string, results?: PlanResult[]): string {
  const failures = results?.filter((r) => !r.ok).length ?? 0;
  const seconds = (ms: number) => (ms / 1000).toFixed(4);
  const total = results?.reduce((sum, r) => sum + r.ms, 0) ?? 0;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(suite)}" tests="${plans.length}" failures="${failures}" time="${seconds(total)}">`,
    `  <testsuite name="${escapeXml(suite)}" tests="${plans.length}" failures="${failures}" errors="0" skipped="0" time="${seconds(total)}">`,
  ];
  plans.forEach((plan, i) => {
    const result = results?.[i];
    const steps = plan.steps.map((s, j) => `${j + 1}. ${s.label} → ${expectText(s)}`).join('\n');
    lines.push(
      `    <testcase classname="assistant-safety.paths.${plan.strategy}" name="${escapeXml(plan.name)}" time="${seconds(result?.ms ?? 0)}">`,
    );
    if (result && !result.ok)
      lines.push(`      <failure message="${escapeXml(result.failure ?? 'failed')}">${escapeXml(steps)}</failure>`);
    lines.push(`      <system-out>${escapeXml(steps)}</system-out>`, '    </testcase>');
  });
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}
