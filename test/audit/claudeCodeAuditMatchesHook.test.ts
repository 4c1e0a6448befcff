import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runClaudeCodeHook } from '../../src/cli/hookClaudeCode.js';
import { runCli } from '../cli/runCli.js';

/*
 * The audit of a Claude Code transcript answers "what would the hook have done": each session is
 * driven through the hook command (its defaults, in-process, its state in files) and written as
 * the transcript Claude Code keeps of it, and the audit must block exactly the calls the hook
 * denied and hold the final answer exactly when the hook's Stop did.
 */

interface Step {
  tool: string;
  input: Record<string, unknown>;
  /** The call created its file (Claude Code's `toolUseResult.type` for a new file). */
  creates?: true;
  /** The folder the agent is in for this call, relative to the project (it `cd`ed there); default the project. */
  in?: string;
}

function project() {
  const cwd = mkdtempSync(join(tmpdir(), 'audit-hook-'));
  mkdirSync(join(cwd, 'src'));
  writeFileSync(join(cwd, 'src', 'config.ts'), 'export const port = 80;\n');
  writeFileSync(join(cwd, 'src', 'other.ts'), 'export const x = 1;\n');
  return cwd;
}

/** Runs the steps through the hook (default options): whether each call was denied, and whether Stop blocked. */
async function throughHook(cwd: string, rules: string[], steps: Step[]) {
  const state = mkdtempSync(join(tmpdir(), 'audit-hook-state-'));
  const base = { session_id: 's1', transcript_path: join(cwd, 's1.jsonl'), cwd, permission_mode: 'default' };
  const send = async (event: Record<string, unknown>) => {
    const out: string[] = [];
    const code = await runClaudeCodeHook(
      ['--state-dir', state, ...rules],
      { out: (t) => out.push(t), err: () => undefined },
      async () => JSON.stringify({ ...base, ...event }),
    );
    expect(code).toBe(0);
    return out.length > 0 ? (JSON.parse(out.join('')) as Record<string, unknown>) : undefined;
  };
  await send({ hook_event_name: 'UserPromptSubmit', prompt: 'change the port in src/config.ts to 8080' });
  // Each call's block code, or null when the hook let it run.
  const codes: (string | null)[] = [];
  for (const [i, s] of steps.entries()) {
    // Each event carries the folder the agent is in at that moment, as Claude Code sends it.
    const call = { tool_name: s.tool, tool_input: s.input, tool_use_id: `toolu_${i}`, cwd: join(cwd, s.in ?? '') };
    const answer = await send({ hook_event_name: 'PreToolUse', ...call });
    const out = answer?.hookSpecificOutput as { permissionDecision?: string; permissionDecisionReason?: string };
    const deny = out?.permissionDecision === 'deny';
    codes.push(deny ? (/\[([A-Z_]+)\]$/.exec(out.permissionDecisionReason ?? '')?.[1] ?? '?') : null);
    if (!deny) await send({ hook_event_name: 'PostToolUse', ...call, tool_response: { success: true } });
  }
  const stop = await send({ hook_event_name: 'Stop', stop_hook_active: false });
  return { codes, denied: codes.map((c) => c !== null), stopBlocked: stop?.decision === 'block' };
}

/** The transcript Claude Code keeps of the session: a denied call's result is the hook's refusal. */
function transcript(cwd: string, steps: Step[], denied: boolean[]): string {
  let n = 0;
  const line = (type: 'user' | 'assistant', content: unknown, extra: object = {}, at = cwd) => ({
    parentUuid: n === 0 ? null : `u${n - 1}`,
    isSidechain: false,
    userType: 'external',
    cwd: at,
    sessionId: 's1',
    version: '2.0.0',
    type,
    message: { role: type, content },
    uuid: `u${n}`,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n++)).toISOString(),
    ...extra,
  });
  const lines: unknown[] = [line('user', 'change the port in src/config.ts to 8080')];
  for (const [i, s] of steps.entries()) {
    const id = `toolu_${i}`;
    // Each line carries the folder the agent was in, as Claude Code writes it.
    const at = join(cwd, s.in ?? '');
    lines.push(line('assistant', [{ type: 'tool_use', id, name: s.tool, input: s.input }], {}, at));
    const result = denied[i]
      ? { type: 'tool_result', tool_use_id: id, content: 'denied by the hook', is_error: true }
      : { type: 'tool_result', tool_use_id: id, content: 'ok' };
    const filePath = s.input.file_path;
    lines.push(
      line('user', [result], s.creates && !denied[i] ? { toolUseResult: { type: 'create', filePath } } : {}, at),
    );
  }
  lines.push(line('assistant', [{ type: 'text', text: 'The port is now 8080.' }]));
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

async function compare(steps: Step[], options: { rules?: object; audit?: string[] } = {}) {
  const cwd = project();
  const rulesArgs: string[] = [];
  if (options.rules) {
    writeFileSync(join(cwd, 'rules.json'), JSON.stringify(options.rules));
    rulesArgs.push('--rules', join(cwd, 'rules.json'));
  }
  const hook = await throughHook(cwd, rulesArgs, steps);
  const file = join(cwd, 's1.jsonl');
  writeFileSync(file, transcript(cwd, steps, hook.denied));
  const run = await runCli(['audit', file, ...rulesArgs, ...(options.audit ?? [])]);
  expect(run.code).toBe(0);
  const report = JSON.parse(run.out);
  const blocked = new Map<string, string>(
    report.traceDetail[0].blocked.map((b: { callId: string; reasonCode: string }) => [b.callId, b.reasonCode]),
  );
  const audited = steps.map((_, i) => blocked.has(`toolu_${i}`));
  if (options.audit === undefined) {
    // With the hook's own defaults: the same calls blocked for the same reasons, the same final answer.
    expect(steps.map((_, i) => blocked.get(`toolu_${i}`) ?? null)).toEqual(hook.codes);
    expect(report.finalAnswersBlocked).toBe(hook.stopBlocked ? 1 : 0);
  }
  return { hook, audited, report };
}

const read = (p: string) => ({ tool: 'Read', input: { file_path: p } });
const edit = (p: string) => ({ tool: 'Edit', input: { file_path: p, old_string: '80', new_string: '8080' } });
const bash = (command: string) => ({ tool: 'Bash', input: { command, description: 'run' } });
const todo = { tool: 'TodoWrite', input: { todos: [{ content: 'port', status: 'completed', activeForm: 'Port' }] } };

describe('the audit of a Claude Code transcript judges as the hook does by default', () => {
  it('should block nothing in a session the hook allowed: read, edit, npm test, todo list, final answer', async () => {
    const { hook, audited, report } = await compare([
      read('src/config.ts'),
      edit('src/config.ts'),
      bash('npm test'),
      todo,
    ]);
    expect(hook).toMatchObject({ denied: [false, false, false, false], stopBlocked: false });
    expect(audited).toEqual(hook.denied);
    expect(report.calls.blocked).toBe(0);
    expect(report.finalAnswersBlocked).toBe(0);
    expect(report.undeclared).toEqual([]);
  });

  it('should allow two edits in a row and a new file, as the coding profile does, even with rules', async () => {
    const { hook, audited, report } = await compare(
      [
        read('src/config.ts'),
        edit('src/config.ts'),
        edit('src/config.ts'),
        { tool: 'Write', input: { file_path: `src/new.ts`, content: 'x' }, creates: true },
        bash('npx tsc --noEmit'),
      ],
      { rules: { tools: { mcp__ci__status: 'read' } } },
    );
    expect(hook).toMatchObject({ denied: [false, false, false, false, false], stopBlocked: false });
    expect(audited).toEqual(hook.denied);
    expect(report.calls.blocked).toBe(0);
    expect(report.finalAnswersBlocked).toBe(0);
  });

  it('should still block an edit of a file never read, and a final answer with the edit unchecked', async () => {
    const { hook, audited, report } = await compare([
      read('src/config.ts'),
      edit('src/other.ts'),
      edit('src/config.ts'),
    ]);
    expect(hook).toMatchObject({ denied: [false, true, false], stopBlocked: true });
    expect(audited).toEqual(hook.denied);
    expect(report.traceDetail[0].blocked[0]).toMatchObject({ tool: 'Edit', reasonCode: 'TARGET_NOT_VALIDATED' });
    expect(report.finalAnswersBlocked).toBe(1);
  });

  it('should still block a second git push with no check between them', async () => {
    const { hook, audited, report } = await compare([
      read('src/config.ts'),
      bash('git push origin main'),
      bash('git push origin main --tags'),
    ]);
    expect(hook.denied).toEqual([false, false, true]);
    expect(audited).toEqual(hook.denied);
    expect(report.traceDetail[0].blocked[0]).toMatchObject({ tool: 'Bash' });
  });

  it('should apply --rules on top as the hook does, its shell section included', async () => {
    const steps = [
      read('src/config.ts'),
      edit('src/config.ts'),
      bash('make verify'),
      { tool: 'mcp__ci__status', input: { branch: 'main' } },
    ];
    const rules = { tools: { mcp__ci__status: 'read' }, shell: { checks: ['make verify'] } };
    const ruled = await compare(steps, { rules });
    expect(ruled.hook).toMatchObject({ denied: [false, false, false, false], stopBlocked: false });
    expect(ruled.report.calls.blocked).toBe(0);
    // Without them the same session is stopped, by the hook and the audit alike.
    const bare = await compare(steps);
    expect(bare.audited).toEqual(bare.hook.denied);
    expect(bare.report.calls.blocked + bare.report.finalAnswersBlocked).toBeGreaterThan(0);
  });

  it("should read each call's relative paths from its own cwd when the session moves into a subfolder", async () => {
    // Read at the project root, then `cd src` and edit it by its name there: the same file, for the hook.
    const inSrc = { in: 'src' };
    const moved = await compare([
      read('src/config.ts'),
      { ...edit('config.ts'), ...inSrc },
      { ...read('config.ts'), ...inSrc },
      { ...edit('other.ts'), ...inSrc },
    ]);
    expect(moved.hook).toMatchObject({ denied: [false, false, false, true], stopBlocked: false });
    expect(moved.audited).toEqual(moved.hook.denied);
    expect(moved.report.traceDetail[0].blocked[0]).toMatchObject({ tool: 'Edit', reasonCode: 'TARGET_NOT_VALIDATED' });
    // Back at the root, the file read in src/ is the one edited by its path from the root; config.ts there is not.
    const back = await compare([
      { ...read('config.ts'), ...inSrc },
      edit('src/config.ts'),
      read('src/config.ts'),
      edit('config.ts'),
    ]);
    expect(back.hook.denied).toEqual([false, false, false, true]);
    expect(back.audited).toEqual(back.hook.denied);
  });

  it('should judge by another profile when --profile says so', async () => {
    const steps = [read('src/config.ts'), edit('src/config.ts'), edit('src/config.ts')];
    const coding = await compare(steps);
    expect(coding.audited).toEqual([false, false, false]);
    const interactive = await compare(steps, { audit: ['--profile', 'interactive'] });
    expect(interactive.audited).toEqual([false, false, true]);
    expect(interactive.report.traceDetail[0].blocked[0].reasonCode).toBe('UNVERIFIED_WRITE');
  });

  it('should refuse an unknown profile in one line naming the allowed ones', async () => {
    const run = await runCli(['audit', 'x.jsonl', '--profile', 'codng']);
    expect(run.code).toBe(2);
    expect(run.err.split('\n')[0]).toMatch(
      /--profile: one of interactive, detection, investigation, coding, got "codng"/,
    );
  });
});
