import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject, runCliIn } from './installProject.js';

/*
 * `hook install` run in a subfolder of a project (as npx allows: it finds the package one folder
 * up) finds the project root as the installed command does, and writes the project's settings
 * there; paths given from the subfolder are written from the project root.
 */
describe('hook install run from a project subfolder', () => {
  it('should write .claude/settings.json at the project root, with paths from it', async () => {
    const dir = makeProject(true);
    writeFileSync(join(dir, 'src', 'rules.json'), '{ "tools": {} }');
    const run = await runCliIn(join(dir, 'src'), ['hook', 'install', 'claude-code', '--', '--rules', 'rules.json']);
    expect(run.code, run.err).toBe(0);
    expect(existsSync(join(dir, 'src', '.claude'))).toBe(false);
    const settings = readFileSync(join(dir, '.claude', 'settings.json'), 'utf8');
    expect(settings).toContain('--rules \\"$CLAUDE_PROJECT_DIR\\"/src/rules.json');
    expect(settings).not.toContain(dir);
  });

  it("should write Codex's project file at the project root too", async () => {
    const dir = makeProject(true);
    const run = await runCliIn(join(dir, 'src'), ['hook', 'install', 'codex']);
    expect(run.code, run.err).toBe(0);
    expect(existsSync(join(dir, '.codex', 'hooks.json'))).toBe(true);
    expect(existsSync(join(dir, 'src', '.codex'))).toBe(false);
  });

  it('should refuse in one line, saying to run it from the project root, where no folder up to the repository root has it', async () => {
    const dir = makeProject(false);
    const run = await runCliIn(join(dir, 'src'), ['hook', 'install', 'claude-code']);
    expect(run.code).toBe(2);
    expect(run.err.split('\n')).toHaveLength(1);
    expect(run.err).toMatch(
      /not installed in this project .*run hook install from the project root.*nothing was written/,
    );
    expect(existsSync(join(dir, '.claude'))).toBe(false);
    expect(existsSync(join(dir, 'src', '.claude'))).toBe(false);
  });
});
