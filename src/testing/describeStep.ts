import type { SafetyConfig } from '../safety/SafetyContext.js';
import type { GraphEdge } from './exploreMachine.js';

const KIND_OF_DECISION: Record<string, string> = { finalAnswer: 'final answer' };

/**
 * What a decision step came to, in words: `write refused (UNVERIFIED_WRITE)`, `final answer allowed`.
 *
 * @example
 * outcomeText(edge); // 'write allowed', or undefined for a step that decides nothing
 */
export function outcomeText(
  edge: Pick<GraphEdge, 'move' | 'decision' | 'reasonCode'> & { before?: GraphEdge['before'] },
): string | undefined {
  if (edge.decision === null) return undefined;
  const what = KIND_OF_DECISION[edge.move.type] ?? ('kind' in edge.move ? edge.move.kind.replace('_', ' ') : 'call');
  if (edge.decision === 'blocked' && edge.before?.context.config.mode === 'shadow')
    return `${what} allowed (enforcement would refuse it: ${edge.reasonCode})`;
  return edge.decision === 'blocked' ? `${what} refused (${edge.reasonCode})` : `${what} allowed`;
}

/**
 * One step of a path as a sentence:
 * `READING · begin write → allowed, now WRITING`.
 *
 * @example
 * graph.edges.map(describeStep); // ['RESOLVING · check resolve → allowed, stays RESOLVING', ...]
 */
export function describeStep(edge: GraphEdge): string {
  const from = String(edge.before.value);
  const to = String(edge.after.value);
  const parts: string[] = [];
  if (edge.decision === 'blocked' && edge.before.context.config.mode === 'shadow')
    parts.push(`would be refused (${edge.reasonCode})${edge.ungated ? ', runs ungated' : ''}`);
  else if (edge.decision === 'blocked') parts.push(`refused (${edge.reasonCode})`);
  else if (edge.decision === 'allowed') parts.push('allowed');
  parts.push(from === to ? `stays ${to}` : `now ${to}`);
  const flags: string[] = [];
  const a = edge.after.context;
  const b = edge.before.context;
  if (a.wroteThisEpisode !== b.wroteThisEpisode) flags.push(a.wroteThisEpisode ? 'wrote' : 'wrote cleared');
  if (a.readAfterWrite !== b.readAfterWrite) flags.push(a.readAfterWrite ? 'verified by a read' : 'evidence cleared');
  if (a.consecutiveVerifyBlocks !== b.consecutiveVerifyBlocks)
    flags.push(`verify blocks ${b.consecutiveVerifyBlocks} → ${a.consecutiveVerifyBlocks}`);
  return `${from} · ${edge.label} → ${[...parts, ...flags].join(', ')}`;
}

/**
 * The session settings a path starts with, in words ('' for the defaults).
 *
 * @example
 * configText({ recoveryTtlMs: 600_000, failedWriteRequiresVerification: true }); // ' [failed writes need verification]'
 */
export function configText(config: SafetyConfig): string {
  const settings = [
    config.failedWriteRequiresVerification && 'failed writes need verification',
    config.targets === 'bind' && 'targets bound',
    config.profile !== undefined && config.profile !== 'interactive' && `${config.profile} profile`,
    config.mode === 'shadow' && 'shadow mode',
  ].filter(Boolean);
  return settings.length ? ` [${settings.join(', ')}]` : '';
}

/**
 * A readable name for a path:
 * `READING · begin write · begin read · write ok · read ok ⇒ VERIFYING, final answer refused`.
 *
 * @example
 * pathName([edge], { state: 'READING', config }); // 'READING · begin write ⇒ WRITING, write allowed'
 */
export function pathName(edges: GraphEdge[], start: { state: string; config: SafetyConfig }): string {
  const last = edges.at(-1);
  const end = last ? String(last.after.value) : start.state;
  const outcome = last && outcomeText(last);
  const labels = edges.map((e) => e.label);
  return `${[start.state, ...labels].join(' · ')} ⇒ ${end}${outcome ? `, ${outcome}` : ''}${configText(start.config)}`;
}
