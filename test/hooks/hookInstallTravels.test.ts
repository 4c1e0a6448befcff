import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { root } from '../server/helpers.js';
import { edit, events } from './fixtures.js';

/*
 * `hook install claude-code --project` writes a command that travels with the repository: it
 * finds the project's own installation through $CLAUDE_PROJECT_DIR, so a teammate's clone at
 * another path runs it as is, and a clone without the installation is refused (exit 2, with
 * how to install), never let through. The package is "installed" by bundling its command into
 * node_modules/assistant-safety, where npm would put it.
 */

let project: string;
beforeAll(() => {
  project = join(mkdtempSync(join(tmpdir(), 'travel-a-')), 'repo');
  const pkg = join(project, 'node_modules', 'assistant-safety');
  mkdirSync(join(pkg, 'dist', 'src', 'cli'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), '{"name":"assistant-safety","type":"module"}');
  const built = spawnSync(
    join(root, 'node_modules', '.bin', 'esbuild'),
    [
      join(root, 'src/cli/bin.ts'),
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--packages=external',
      '--splitting',
      `--outdir=${join(pkg, 'dist', 'src', 'cli')}`,
      '--log-level=error',
    ],
    { encoding: 'utf8' },
  );
  if (built.status !== 0) throw new Error(built.stderr);
  // The bundle's own dependencies (zod, xstate, ws) resolve from this repository's node_modules.
  cpSync(join(root, 'node_modules', 'zod'), join(project, 'node_modules', 'zod'), { recursive: true });
  cpSync(join(root, 'node_modules', 'xstate'), join(project, 'node_modules', 'xstate'), { recursive: true });
  cpSync(join(root, 'node_modules', 'ws'), join(project, 'node_modules', 'ws'), { recursive: true });
}, 120_000);

/** Runs the installed command the way Claude Code does: through a shell, in the project, with CLAUDE_PROJECT_DIR set. */
function runInstalled(command: string, dir: string, event: unknown) {
  return spawnSync('bash', ['-c', command], {
    cwd: dir,
    input: JSON.stringify(event),
    env: { ...process.env, CLAUDE_PROJECT_DIR: dir, ASSISTANT_SAFETY_STATE_DIR: join(dir, '.state') },
    encoding: 'utf8',
  });
}

describe('hook install claude-code --project', () => {
  it('writes a command that runs from a second clone at another path, and refuses where it is not installed', () => {
    const install = spawnSync(
      process.execPath,
      [
        join(project, 'node_modules/assistant-safety/dist/src/cli/bin.js'),
        'hook',
        'install',
        'claude-code',
        '--project',
        '--',
        '--escalate',
        'NO_VALIDATED_TARGET',
      ],
      { cwd: project, encoding: 'utf8' },
    );
    expect(install.status, install.stderr).toBe(0);
    const settings = readFileSync(join(project, '.claude', 'settings.json'), 'utf8');
    expect(settings).not.toContain(project);
    expect(settings).not.toContain(process.execPath);
    const command = (JSON.parse(settings) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } }).hooks
      .PreToolUse[0]!.hooks[0]!.command;
    expect(command).toContain('"$CLAUDE_PROJECT_DIR"/node_modules/assistant-safety/dist/src/cli/bin.js');
    expect(command).toContain('hook claude-code --escalate NO_VALIDATED_TARGET');

    // A teammate's clone, elsewhere: the same line decides (an Edit before any read is asked about).
    const clone = join(mkdtempSync(join(tmpdir(), 'travel-b-')), 'checkout');
    cpSync(project, clone, { recursive: true });
    const there = runInstalled(command, clone, events('travel').pre('Edit', edit(), 'w1'));
    expect(there.status, there.stderr).toBe(0);
    expect(JSON.parse(there.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'ask' } });

    // A clone without `npm install`: refused, with how to install.
    const bare = join(mkdtempSync(join(tmpdir(), 'travel-c-')), 'fresh');
    cpSync(join(project, '.claude'), join(bare, '.claude'), { recursive: true });
    const missing = runInstalled(command, bare, events('travel').pre('Edit', edit(), 'w1'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/not installed in this project .*npm install --save-dev assistant-safety.*refused/);
  });

  it('refuses to install into a project that has not installed the package', () => {
    const empty = mkdtempSync(join(tmpdir(), 'travel-d-'));
    const install = spawnSync(
      process.execPath,
      [join(project, 'node_modules/assistant-safety/dist/src/cli/bin.js'), 'hook', 'install', 'claude-code'],
      { cwd: empty, encoding: 'utf8' },
    );
    expect(install.status).toBe(2);
    expect(install.stderr).toMatch(/not installed in this project.*nothing was written/);
  });
});
