import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClaudeCodeSettingsError, mergeClaudeCodeSettings } from 'assistant-safety/hooks';
import { main } from '../../src/cli/main.js';

/* `assistant-safety hook install claude-code`: settings merged, never clobbered, read back. */

/** The command the docs page shows (an installation under /usr/local). */
const COMMAND = '/usr/local/bin/node /usr/local/lib/node_modules/assistant-safety/dist/src/cli/bin.js hook claude-code';

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

/** The first ```json fragment block of docs/coding-agents.md after the given heading. */
function docsSnippet(): unknown {
  const page = readFileSync('docs/coding-agents.md', 'utf8');
  const m = /```json fragment\n([\s\S]*?)\n```/.exec(page.slice(page.indexOf('hook install claude-code')));
  return JSON.parse(m![1]!);
}

describe('hook install claude-code', () => {
  it('writes the settings the docs page shows into a new settings file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'install-')), '.claude', 'settings.json');
    const r = await cli('hook', 'install', 'claude-code', '--settings', file, '--command', COMMAND);
    expect(r).toMatchObject({ code: 0, out: expect.stringMatching(/added the assistant-safety hooks/) });
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written).toEqual(docsSnippet());
    expect(Object.keys(written.hooks)).toEqual([
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'PermissionDenied',
      'Stop',
      'SessionStart',
      'SessionEnd',
      'UserPromptSubmit',
    ]);
  });

  it('merges into existing settings without clobbering them, and never twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'install-'));
    const file = join(dir, 'settings.json');
    const mine = { matcher: 'Bash', hooks: [{ type: 'command', command: './check-bash.sh', timeout: 10 }] };
    const before = { model: 'opus', permissions: { allow: ['Read'] }, hooks: { PreToolUse: [mine] } };
    writeFileSync(file, JSON.stringify(before, null, 2));
    expect((await cli('hook', 'install', 'claude-code', '--settings', file, '--command', COMMAND)).code).toBe(0);
    const after = JSON.parse(readFileSync(file, 'utf8'));
    expect(after.model).toBe('opus');
    expect(after.permissions).toEqual({ allow: ['Read'] });
    expect(after.hooks.PreToolUse).toEqual([mine, { matcher: '*', hooks: [{ type: 'command', command: COMMAND }] }]);
    const text = readFileSync(file, 'utf8');
    const again = await cli('hook', 'install', 'claude-code', '--settings', file, '--command', COMMAND);
    expect(again.out).toMatch(/already has/);
    expect(readFileSync(file, 'utf8')).toBe(text);
    // A new path updates our entry in place.
    await cli(
      'hook',
      'install',
      'claude-code',
      '--settings',
      file,
      '--command',
      '/opt/node /opt/as/bin.js hook claude-code',
    );
    const moved = JSON.parse(readFileSync(file, 'utf8'));
    expect(moved.hooks.PreToolUse).toHaveLength(2);
    expect(moved.hooks.PreToolUse[1].hooks[0].command).toBe('/opt/node /opt/as/bin.js hook claude-code');
  });

  it('prints a diff and writes nothing on --dry-run', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'install-')), 'settings.json');
    writeFileSync(file, '{\n  "model": "opus"\n}\n');
    const r = await cli('hook', 'install', 'claude-code', '--settings', file, '--command', COMMAND, '--dry-run');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^- {2}"model": "opus"$/m);
    expect(r.out).toMatch(/^\+ {2}"model": "opus",$/m);
    expect(r.out).toMatch(/^\+ {2}"hooks": \{$/m);
    expect(r.out).toContain(`+            "command": "${COMMAND}"`);
    expect(readFileSync(file, 'utf8')).toBe('{\n  "model": "opus"\n}\n');
  });

  it('refuses settings it cannot merge, writing nothing', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'install-')), 'settings.json');
    writeFileSync(file, '{ "hooks": ');
    const r = await cli('hook', 'install', 'claude-code', '--settings', file, '--command', COMMAND);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/is not JSON.*nothing was written/);
    writeFileSync(file, '{ "hooks": { "Stop": {} } }');
    expect((await cli('hook', 'install', 'claude-code', '--settings', file, '--command', COMMAND)).err).toMatch(
      /hooks\.Stop.*nothing was written/,
    );
    expect(() => mergeClaudeCodeSettings([], COMMAND)).toThrow(ClaudeCodeSettingsError);
    expect(readFileSync(file, 'utf8')).toBe('{ "hooks": { "Stop": {} } }');
  });
});
