import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentHook } from '../../../src/cli/hookAgent.js';
import { codex, cursor, gemini } from './agentEvents.js';

/*
 * Input the hook cannot decide is refused the way each agent blocks: exit code 2 with the reason
 * on stderr (Codex CLI, Gemini CLI and Cursor all take it as "refuse"; any other exit code lets
 * the call go). An event the gate does not handle is answered with nothing.
 */

async function hook(agent: 'codex' | 'gemini' | 'cursor', stdin: string) {
  const dir = mkdtempSync(join(tmpdir(), 'agent-hook-'));
  let out = '';
  let err = '';
  const code = await runAgentHook(
    agent,
    ['--state-dir', dir],
    { out: (t) => (out += t), err: (t) => (err += t) },
    async () => stdin,
  );
  return { code, out, err };
}

describe.each([
  ['codex', codex.edit('e1')[0]],
  ['gemini', gemini.edit('e1')[0]],
  ['cursor', cursor.edit('e1')[0]],
] as const)('hook %s with malformed input', (agent, event) => {
  it('refuses input that is not JSON with exit code 2 and the reason on stderr', async () => {
    const r = await hook(agent, '{"hook_event_name": ');
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/the hook input on stdin is not JSON .*; the call is refused/);
  });

  it('refuses an event missing the fields the gate reads', async () => {
    const { tool_name: _dropped, ...broken } = event as Record<string, unknown>;
    const r = await hook(agent, JSON.stringify(broken));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/does not match .*hook schema: .*tool_name.*; the call is refused/s);
  });

  it('answers the well-formed event (exit 0, the deny in the agent format)', async () => {
    const r = await hook(agent, JSON.stringify(event));
    expect(r.code).toBe(0);
    expect(r.out).toContain('Read src/config.ts first');
  });

  it('says nothing to an event it does not handle', async () => {
    const r = await hook(agent, JSON.stringify({ ...(event as object), hook_event_name: 'PreCompact' }));
    expect(r).toEqual({ code: 0, out: '', err: '' });
  });
});
