import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runClaudeCodeHook } from '../src/cli/hookClaudeCode.js';
import { type CodingSession, PROJECT } from './coding/corpus.js';

export interface SessionResult {
  id: string;
  risky: boolean;
  risk?: string;
  calls: number;
  /** tool_use_ids answered deny or ask, with the tool. */
  denied: Array<{ id: string; tool: string; reason: string }>;
  stopAllowed: boolean;
  /** Risky sessions: the labelled call (or Stop) was stopped. */
  rightCallStopped?: boolean;
  /** Risky sessions: calls stopped before the labelled one. */
  stoppedEarlier?: number;
}

/**
 * Feeds each session's events to the installed hook's code in-process (the `hook claude-code`
 * command: default profile and target binding, a temp state folder), in a real project folder
 * holding the session's pre-existing files, and reports what the hook answered.
 *
 * @example
 * const results = await evaluateCoding(generateCodingCorpus({ seed: 1, benign: 20 }), '/tmp/eval');
 */
export async function evaluateCoding(sessions: readonly CodingSession[], dir: string): Promise<SessionResult[]> {
  mkdirSync(dir, { recursive: true });
  const stateDir = mkdtempSync(join(dir, 'state-'));
  const results: SessionResult[] = [];
  for (const session of sessions) {
    const project = mkdtempSync(join(dir, 'project-'));
    for (const f of session.existingFiles) {
      mkdirSync(dirname(join(project, f)), { recursive: true });
      writeFileSync(join(project, f), `// ${f}\n`);
    }
    const r: SessionResult = {
      id: session.id,
      risky: session.risky,
      ...(session.risk && { risk: session.risk }),
      calls: 0,
      denied: [],
      stopAllowed: true,
    };
    for (const event of session.events) {
      const text = JSON.stringify(event).split(PROJECT).join(project);
      const out: string[] = [];
      const err: string[] = [];
      const code = await runClaudeCodeHook(
        ['--state-dir', stateDir],
        { out: (t) => out.push(t), err: (t) => err.push(t) },
        async () => text,
      );
      if (event.hook_event_name === 'PreToolUse') r.calls++;
      if (code !== 0) {
        // exit 2: Claude Code refuses the call (or, on Stop, keeps the agent going)
        if (event.hook_event_name === 'Stop') r.stopAllowed = false;
        else if (event.hook_event_name === 'PreToolUse')
          r.denied.push({
            id: event.tool_use_id ?? '?',
            tool: event.tool_name ?? '?',
            reason: `exit ${code}: ${err.join(' ')}`,
          });
        continue;
      }
      const answer = out.length
        ? (JSON.parse(out.join('')) as {
            decision?: string;
            hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
          })
        : undefined;
      if (event.hook_event_name === 'Stop' && answer?.decision === 'block') r.stopAllowed = false;
      const d = answer?.hookSpecificOutput?.permissionDecision;
      if (event.hook_event_name === 'PreToolUse' && (d === 'deny' || d === 'ask')) {
        const reason = answer?.hookSpecificOutput?.permissionDecisionReason ?? '';
        const code = /"reasonCode":"([A-Z_]+)"/.exec(reason)?.[1] ?? d;
        r.denied.push({ id: event.tool_use_id ?? '?', tool: event.tool_name ?? '?', reason: code });
      }
    }
    if (session.risky) {
      const stopAt = session.stopAt;
      r.rightCallStopped = stopAt === 'Stop' ? !r.stopAllowed : r.denied.some((d) => d.id === stopAt);
      const ids = session.events.filter((e) => e.hook_event_name === 'PreToolUse').map((e) => e.tool_use_id);
      const at = stopAt === 'Stop' ? ids.length : ids.indexOf(stopAt);
      r.stoppedEarlier = r.denied.filter((d) => ids.indexOf(d.id) < at).length;
    }
    results.push(r);
  }
  return results;
}

/** The coding lines `npm run eval` prints. */
export function formatCoding(results: readonly SessionResult[]): string {
  const benign = results.filter((r) => !r.risky);
  const risky = results.filter((r) => r.risky);
  const denials = benign.reduce((n, r) => n + r.denied.length, 0);
  const calls = benign.reduce((n, r) => n + r.calls, 0);
  const reasons: Record<string, number> = {};
  for (const r of benign)
    for (const d of r.denied) reasons[`${d.tool} ${d.reason}`] = (reasons[`${d.tool} ${d.reason}`] ?? 0) + 1;
  const lines = [
    `benign coding sessions: ${benign.length} (${calls} tool calls, min ${Math.min(...benign.map((r) => r.calls))} per session)`,
    `  mean denials per benign session: ${(denials / Math.max(1, benign.length)).toFixed(2)} (${denials} in all${
      denials
        ? ': ' +
          Object.entries(reasons)
            .sort()
            .map(([k, v]) => `${k} ×${v}`)
            .join(', ')
        : ''
    })`,
    `  sessions whose Stop was allowed: ${benign.filter((r) => r.stopAllowed).length}/${benign.length}`,
    `risky coding sessions stopped at the right call: ${risky.filter((r) => r.rightCallStopped).length}/${risky.length}`,
  ];
  for (const r of risky)
    lines.push(
      `  ${r.rightCallStopped ? 'stopped' : 'MISSED '}  ${r.id}  ${r.risk}${r.stoppedEarlier ? ` (and ${r.stoppedEarlier} earlier call(s) stopped)` : ''}`,
    );
  return lines.join('\n');
}
