import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentHooksError, mergeCodexHooks, mergeCursorHooks, mergeGeminiSettings } from 'assistant-safety/hooks';
import { main } from '../../../src/cli/main.js';
import { projectAgentCommand } from '../../../src/cli/hookInstallAgents.js';

/* `hook install codex|gemini|cursor`: the agent's file merged, never clobbered, never doubled. */

const CMD = (agent: string) => `/usr/local/bin/assistant-safety hook ${agent}`;

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

describe('mergeCodexHooks', () => {
  it('adds one entry per event in Claude Code shape, keeps other hooks, and is idempotent', () => {
    const mine = { matcher: '^Bash$', hooks: [{ type: 'command', command: './audit.sh', timeout: 30 }] };
    const first = mergeCodexHooks({ description: 'team hooks', hooks: { PreToolUse: [mine] } }, CMD('codex'));
    expect(first.changed).toBe(true);
    expect(first.settings).toEqual({
      description: 'team hooks',
      hooks: {
        PreToolUse: [mine, { hooks: [{ type: 'command', command: CMD('codex') }] }],
        PostToolUse: [{ hooks: [{ type: 'command', command: CMD('codex') }] }],
        Stop: [{ hooks: [{ type: 'command', command: CMD('codex') }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: CMD('codex') }] }],
        SessionStart: [{ hooks: [{ type: 'command', command: CMD('codex') }] }],
        SessionEnd: [{ hooks: [{ type: 'command', command: CMD('codex') }] }],
      },
    });
    expect(mergeCodexHooks(first.settings, CMD('codex'))).toEqual({ settings: first.settings, changed: false });
    const moved = mergeCodexHooks(first.settings, '/opt/bin/assistant-safety hook codex --targets ignore');
    expect(moved.changed).toBe(true);
    expect((moved.settings.hooks as Record<string, unknown[]>).Stop).toHaveLength(1);
  });

  it('refuses a file it cannot merge into, writing nothing', () => {
    expect(() => mergeCodexHooks({ hooks: { Stop: 'no' } }, CMD('codex'))).toThrow(AgentHooksError);
    expect(() => mergeCodexHooks([1], CMD('codex'))).toThrow(AgentHooksError);
  });
});

describe('mergeGeminiSettings', () => {
  it('adds named handlers (matcher "*" on tool events), keeps other settings and hooks keys, and is idempotent', () => {
    const before = { model: { name: 'gemini-2.5-pro' }, hooks: { disabled: ['secret-scanner'] } };
    const first = mergeGeminiSettings(before, CMD('gemini'));
    const handler = { name: 'assistant-safety', type: 'command', command: CMD('gemini') };
    expect(first.settings).toEqual({
      model: { name: 'gemini-2.5-pro' },
      hooks: {
        disabled: ['secret-scanner'],
        BeforeTool: [{ matcher: '*', hooks: [handler] }],
        AfterTool: [{ matcher: '*', hooks: [handler] }],
        BeforeAgent: [{ hooks: [handler] }],
        AfterAgent: [{ hooks: [handler] }],
        SessionStart: [{ hooks: [handler] }],
        SessionEnd: [{ hooks: [handler] }],
      },
    });
    expect(mergeGeminiSettings(first.settings, CMD('gemini')).changed).toBe(false);
  });
});

describe('mergeCursorHooks', () => {
  it('writes version 1 and flat fail-closed handlers, keeps other hooks, and is idempotent', () => {
    const mine = { command: './format.sh' };
    const first = mergeCursorHooks({ hooks: { afterFileEdit: [mine] } }, CMD('cursor'));
    const ours = { command: CMD('cursor'), failClosed: true };
    expect(first.settings).toEqual({
      version: 1,
      hooks: {
        afterFileEdit: [mine],
        preToolUse: [ours],
        postToolUse: [ours],
        postToolUseFailure: [ours],
        beforeSubmitPrompt: [ours],
        stop: [ours],
        sessionStart: [ours],
        sessionEnd: [ours],
      },
    });
    expect(mergeCursorHooks(first.settings, CMD('cursor'))).toEqual({ settings: first.settings, changed: false });
  });
});

describe.each(['codex', 'gemini', 'cursor'])('hook install %s', (agent) => {
  it('writes the file, then finds nothing to change', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'install-')), 'hooks.json');
    writeFileSync(file, JSON.stringify({ hooks: {} }));
    const first = await cli('hook', 'install', agent, '--settings', file, '--command', CMD(agent));
    expect(first).toMatchObject({ code: 0, out: expect.stringMatching(/added the assistant-safety hooks/) });
    expect(readFileSync(file, 'utf8')).toContain(CMD(agent));
    const again = await cli('hook', 'install', agent, '--settings', file, '--command', CMD(agent));
    expect(again).toMatchObject({ code: 0, out: expect.stringMatching(/already has the assistant-safety hooks/) });
    // Another command for the same hooks: the entries are updated in place, and the installer says so.
    const moved = await cli('hook', 'install', agent, '--settings', file, '--command', `${CMD(agent)} --shadow`);
    expect(moved).toMatchObject({ code: 0, out: expect.stringMatching(/updated the assistant-safety hooks/) });
  });

  it("writes no machine's paths into a project file: the project's installation, found by walking up", () => {
    const command = projectAgentCommand(agent as 'codex', ' --rules rules.json');
    expect(command).not.toMatch(/\/home\/|\/usr\/|\/tmp\//);
    expect(command).toContain(`node "$f" hook ${agent} --rules rules.json`);
    expect(command).toMatch(/exit 2; fi$/);
  });
});

describe('docs/other-coding-agents.md', () => {
  it('shows what hook install codex and hook install cursor write into an empty file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'install-'));
    const page = readFileSync('docs/other-coding-agents.md', 'utf8');
    const [codexBlock, cursorBlock] = [...page.matchAll(/```json fragment\n([\s\S]*?)\n```/g)].map((m) =>
      JSON.parse(m[1]!),
    );
    for (const [agent, block] of [
      ['codex', codexBlock],
      ['cursor', cursorBlock],
    ] as const) {
      const file = join(dir, `${agent}.json`);
      expect(
        (await cli('hook', 'install', agent, '--settings', file, '--command', `assistant-safety hook ${agent}`)).code,
      ).toBe(0);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(block);
    }
  });
});
