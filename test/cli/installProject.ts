import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './runCli.js';

/** A project folder (a git repository) with a `src/` subfolder, the package "installed" in it when `installed`. */
export function makeProject(installed: boolean): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'install-')), 'proj');
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, 'package.json'), '{"name":"proj"}');
  if (installed) {
    const bin = join(dir, 'node_modules', 'assistant-safety', 'dist', 'src', 'cli');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'bin.js'), '');
  }
  return dir;
}

/** Runs the CLI in-process from `cwd` (the folder a person runs `npx assistant-safety` in). */
export async function runCliIn(cwd: string, args: string[]) {
  const before = process.cwd();
  process.chdir(cwd);
  try {
    return await runCli(args);
  } finally {
    process.chdir(before);
  }
}
