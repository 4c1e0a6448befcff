import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, cli, TSX } from '../mcp/helpers.js';
import { events } from './fixtures.js';

/*
 * `hook install claude-code -- --rules rules.json`: Claude Code runs the hook in the session's
 * folder, not where the installer ran, so a relative path given to the installer is made
 * absolute in what it writes; in the project form, from $CLAUDE_PROJECT_DIR, so it still holds
 * in a clone elsewhere. Behaviour checked by running the written command from another folder:
 * the rules make an MCP tool a read (allowed: no answer), where without them it is a write
 * with nothing read first (denied).
 */

const RULES = { tools: { mcp__notes__wipe: 'read' } };
/** The MCP tool call, in a session of its own. */
const wipe = (session: string) => events(session).pre('mcp__notes__wipe', {}, 't1');

/** The settings' PreToolUse command. */
const commandIn = (settings: string) =>
  (JSON.parse(readFileSync(settings, 'utf8')) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } }).hooks
    .PreToolUse[0]!.hooks[0]!.command;

/** Runs a written hook command as Claude Code does: through a shell, in `cwd`. */
function runHook(command: string, cwd: string, session: string, env: Record<string, string> = {}) {
  return spawnSync('bash', ['-c', command], {
    cwd,
    input: JSON.stringify({ ...wipe(session), cwd }),
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
}

/** `hook install claude-code ARGS`, run in `cwd`. */
function installIn(cwd: string, args: string[]) {
  const [node, ...rest] = cli(['hook', 'install', 'claude-code', ...args]);
  return spawnSync(node!, rest, { cwd, encoding: 'utf8' });
}

/** A project folder holding rules.json, and a folder of it the agent works in. */
function project() {
  const dir = join(mkdtempSync(join(tmpdir(), 'anchor-')), 'repo');
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'rules.json'), JSON.stringify(RULES));
  return dir;
}

describe('hook install with relative paths', () => {
  it('writes --rules and --state-dir absolute for a given command, so the hook finds them from another folder', () => {
    const dir = project();
    const settings = join(dir, 'settings.json');
    const hook = cli(['hook', 'claude-code'])
      .map((w) => JSON.stringify(w))
      .join(' ');
    const install = installIn(dir, [
      '--settings',
      settings,
      '--command',
      hook,
      '--',
      '--rules',
      'rules.json',
      '--state-dir',
      '.state',
    ]);
    expect(install.status, install.stderr).toBe(0);
    const run = runHook(commandIn(settings), join(dir, 'src'), 'anchored');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(''); // allowed: the rules made it a read
    expect(readFileSync(join(dir, '.state', 'recordings', 'anchored.jsonl'), 'utf8')).toContain('mcp__notes__wipe');
  }, 60_000);

  it('writes them from $CLAUDE_PROJECT_DIR in the project form, so a clone elsewhere uses its own', () => {
    const dir = project();
    // The package "installed" in the project: its bin runs this source tree (tsx through NODE_OPTIONS).
    const pkg = join(dir, 'node_modules', 'assistant-safety');
    mkdirSync(join(pkg, 'dist', 'src', 'cli'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), '{"name":"assistant-safety","type":"module"}');
    writeFileSync(join(pkg, 'dist', 'src', 'cli', 'bin.js'), `import ${JSON.stringify(pathToFileURL(BIN).href)};\n`);
    const install = installIn(dir, ['--project', '--', '--rules', 'rules.json']);
    expect(install.status, install.stderr).toBe(0);
    const settings = readFileSync(join(dir, '.claude', 'settings.json'), 'utf8');
    expect(settings).not.toContain(dir);

    const clone = join(mkdtempSync(join(tmpdir(), 'anchor-clone-')), 'checkout');
    cpSync(dir, clone, { recursive: true });
    const env = {
      CLAUDE_PROJECT_DIR: clone,
      ASSISTANT_SAFETY_STATE_DIR: join(clone, '.state'),
      NODE_OPTIONS: `--import ${TSX}`,
    };
    const run = runHook(commandIn(join(clone, '.claude', 'settings.json')), join(clone, 'src'), 'with', env);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('');

    // Without the rules file the same call is a write no read came before: denied, so the rules were read.
    writeFileSync(join(clone, 'rules.json'), '{ "tools": {} }');
    const without = runHook(commandIn(join(clone, '.claude', 'settings.json')), join(clone, 'src'), 'without', env);
    expect(without.status, without.stderr).toBe(0);
    expect(JSON.parse(without.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  }, 60_000);

  it("writes them absolute when --settings names another project's file, so the hook finds them there", () => {
    const dir = project();
    const other = join(mkdtempSync(join(tmpdir(), 'anchor-other-')), 'repo');
    // The other project has the package (the project form is refused where it has not).
    mkdirSync(join(other, 'node_modules', 'assistant-safety', 'dist', 'src', 'cli'), { recursive: true });
    writeFileSync(join(other, 'node_modules', 'assistant-safety', 'dist', 'src', 'cli', 'bin.js'), '');
    const settings = join(other, '.claude', 'settings.json');
    // Before: a path under this folder became "$CLAUDE_PROJECT_DIR"/rules.json, which names a file of the other project.
    const install = installIn(dir, ['--settings', settings, '--dry-run', '--', '--rules', 'rules.json']);
    expect(install.status, install.stderr).toBe(0);
    expect(install.stdout).toContain(`--rules ${join(dir, 'rules.json')}`);
    expect(install.stdout).not.toContain('$CLAUDE_PROJECT_DIR"/rules.json');
  }, 60_000);
});
