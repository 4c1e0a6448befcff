import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject, runCliIn } from './installProject.js';

/*
 * The shared project form never holds this machine's paths: a path option outside the project is
 * refused (a path inside it is written from "$CLAUDE_PROJECT_DIR"), and --settings into a project
 * without the package is refused as the default settings are.
 */
describe('hook install, the shared project form', () => {
  it('should refuse a path option outside the project in one line naming the option', async () => {
    const dir = makeProject(true);
    const run = await runCliIn(dir, ['hook', 'install', 'claude-code', '--dry-run', '--', '--record', '../recs']);
    expect(run.code).toBe(2);
    expect(run.err.split('\n')).toHaveLength(1);
    expect(run.err).toMatch(/--record .*recs is outside the project .*shared.*--user; nothing was written$/);
    expect(run.out).toBe('');
  });

  it('should write a path inside the project from $CLAUDE_PROJECT_DIR', async () => {
    const dir = makeProject(true);
    const run = await runCliIn(dir, ['hook', 'install', 'claude-code', '--dry-run', '--', '--record', 'recs']);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain('--record \\"$CLAUDE_PROJECT_DIR\\"/recs');
    expect(run.out).not.toContain(join(dir, 'recs'));
  });

  it('should refuse a path outside the project for Gemini CLI too', async () => {
    const dir = makeProject(true);
    const run = await runCliIn(dir, ['hook', 'install', 'gemini', '--dry-run', '--', '--state-dir', '/var/tmp/x']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/--state-dir \/var\/tmp\/x is outside the project/);
  });

  it('should write the absolute path for a command of your own (--command), which is not the shared form', async () => {
    const dir = makeProject(true);
    const settings = join(dir, 'user-settings.json');
    const run = await runCliIn(dir, [
      'hook',
      'install',
      'claude-code',
      '--settings',
      settings,
      '--command',
      'assistant-safety',
      '--dry-run',
      '--',
      '--record',
      '../recs',
    ]);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain(`--record ${join(dir, '..', 'recs')}`);
  });

  it('should refuse --settings into a project that has not installed the package', async () => {
    const dir = makeProject(false);
    const settings = join(dir, '.claude', 'settings.json');
    const here = makeProject(true);
    const run = await runCliIn(here, ['hook', 'install', 'claude-code', '--settings', settings]);
    expect(run.code).toBe(2);
    expect(run.err.split('\n')).toHaveLength(1);
    expect(run.err).toMatch(/not installed in the project of .*settings\.json.*nothing was written/);
    expect(existsSync(settings)).toBe(false);
  });

  it('should write --settings into a project that has installed it', async () => {
    const dir = makeProject(true);
    const settings = join(dir, '.claude', 'settings.json');
    const run = await runCliIn(makeProject(true), ['hook', 'install', 'claude-code', '--settings', settings]);
    expect(run.code, run.err).toBe(0);
    expect(existsSync(settings)).toBe(true);
  });
});
