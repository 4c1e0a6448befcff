import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * A new user's first minutes: a fresh clone of this repository's HEAD, `npm ci`
 * (offline from npm's cache, which the `npm ci` of this checkout filled), then
 * every `npx assistant-safety` command docs/testing.md lists, exactly as the
 * page writes it, each of which must exit 0. `npm ci` builds the package
 * (the `prepare` script), so npm's own `npx` finds the package's bin.
 *
 * The committed HEAD is cloned, not the working tree: uncommitted edits are not
 * what a user clones. The page's other commands (`npm test`, `npx vitest run …`)
 * are the suite this file runs in.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const MINUTE = 60_000;

let work: string;
let clone: string;

function sh(command: string, cwd: string, timeout: number) {
  const started = Date.now();
  const result = spawnSync('sh', ['-c', command], { cwd, encoding: 'utf8', timeout, maxBuffer: 256 * 1024 * 1024 });
  return { ...result, seconds: (Date.now() - started) / 1000 };
}

function must(command: string, cwd: string, timeout: number) {
  const result = sh(command, cwd, timeout);
  if (result.status !== 0) {
    throw new Error(`${command} exited ${result.status}\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

/** The `npx assistant-safety …` command lines of a page's `sh` blocks, comments stripped. */
function cliCommands(markdown: string): string[] {
  const commands: string[] = [];
  let inSh = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) {
      inSh = !inSh && /^```sh\b/.test(line);
      continue;
    }
    if (inSh && line.startsWith('npx assistant-safety ')) commands.push(line.replace(/\s+#.*$/, '').trim());
  }
  return commands;
}

/** npx keeps one install per project path under npm's cache (`_npx/<hash>`): drop the clone's. */
function dropNpxEntries(path: string) {
  const cache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
  const npx = join(cache, '_npx');
  if (!existsSync(npx)) return;
  for (const entry of readdirSync(npx)) {
    const manifest = join(npx, entry, 'package.json');
    if (existsSync(manifest) && readFileSync(manifest, 'utf8').includes(path)) {
      rmSync(join(npx, entry), { recursive: true, force: true });
    }
  }
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'assistant-safety-clone-'));
  clone = join(work, 'assistant-safety');
  const head = must('git rev-parse HEAD', root, MINUTE).stdout.trim();
  must(`git clone --quiet --no-checkout "${root}" "${clone}"`, work, 2 * MINUTE);
  must(`git checkout --quiet --detach ${head}`, clone, MINUTE);
  const ci = must('npm ci --prefer-offline --no-audit --no-fund', clone, 15 * MINUTE);
  console.log(`fresh clone: npm ci (with the build) took ${ci.seconds.toFixed(0)} s`);
}, 20 * MINUTE);

afterAll(() => {
  if (clone !== undefined) dropNpxEntries(clone);
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('a fresh clone after npm ci', () => {
  it('has the package built: the CLI and the app', () => {
    expect(existsSync(join(clone, 'dist', 'src', 'cli', 'bin.js'))).toBe(true);
    expect(existsSync(join(clone, 'dist', 'viz', 'index.html'))).toBe(true);
  });

  it(
    'runs every command docs/testing.md lists, exactly as written, each exiting 0',
    () => {
      const commands = cliCommands(readFileSync(join(clone, 'docs', 'testing.md'), 'utf8'));
      // The QA commands the page documents: check, paths, test-paths and mutate, Patrol's check.
      for (const verb of ['check', 'paths', 'test-paths', 'mutate']) {
        expect(commands.some((c) => c.startsWith(`npx assistant-safety ${verb} `) || c.endsWith(` ${verb}`))).toBe(
          true,
        );
      }
      const failures: string[] = [];
      for (const command of commands) {
        const result = sh(command, clone, 10 * MINUTE);
        console.log(`fresh clone: ${command} → exit ${result.status} in ${result.seconds.toFixed(1)} s`);
        if (result.status !== 0) {
          failures.push(
            `${command} exited ${result.status}\n${result.stdout.slice(-2000)}\n${result.stderr.slice(-2000)}`,
          );
        }
      }
      expect(failures).toEqual([]);
    },
    60 * MINUTE,
  );
});
