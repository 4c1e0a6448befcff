import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRecording, replayRecording } from 'assistant-safety';
import { readMachineFile } from 'assistant-safety/node';
import { root } from '../server/helpers.js';

/*
 * Crash tests: real processes killed with SIGKILL at random moments, then
 * restarted on the same files. The children are bundled once (plain node
 * starts in tens of milliseconds; a TypeScript loader would take seconds).
 */

const RUNS = Number(process.env.CRASH_RUNS ?? 20);
const out = mkdtempSync(join(tmpdir(), 'crash-'));

beforeAll(() => {
  // esbuild's command line (installed with vite and tsx): one bundle per child, Prettier left out (a save then
  // writes plain 2-space JSON: the bytes do not matter here, the pairs do).
  for (const [name, entry] of [
    ['recorder', 'test/node/crash/recorderChild.ts'],
    ['server', 'test/node/crash/serverChild.ts'],
  ] as const) {
    const result = spawnSync(
      join(root, 'node_modules', '.bin', 'esbuild'),
      [
        join(root, entry),
        '--bundle',
        '--platform=node',
        '--format=esm',
        '--external:prettier',
        `--banner:js=import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);`,
        `--outfile=${join(out, `${name}.mjs`)}`,
        '--log-level=error',
      ],
      { encoding: 'utf8' },
    );
    if (result.status !== 0) throw new Error(`bundling ${entry} failed: ${result.stderr}`);
  }
}, 60_000);

/** Starts a bundled child; resolves on the first stdout line matching `ready`. */
function start(name: string, args: string[], ready: RegExp) {
  const child = spawn(process.execPath, [join(out, `${name}.mjs`), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const line = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      output += String(d);
      const m = output.split('\n').find((l) => ready.test(l));
      if (m) resolve(m);
    });
    child.stderr.on('data', (d: Buffer) => (output += String(d)));
    void exited.then((code) => reject(new Error(`${name} exited with ${code} before ${ready}: ${output}`)));
  });
  return { child, line, exited, output: () => output };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('crashes', () => {
  it(`should replay every complete line of a recording killed mid-stream and restarted appending (${RUNS} runs)`, async () => {
    // One file, a chain of runs: each restart appends to what the previous kill left, and is killed in turn;
    // the last one finishes. Half the kills also leave a torn fragment, as a kill inside a write does.
    const file = join(out, 'chain.jsonl');
    const tails: Record<string, number> = {};
    for (let run = 0; run < RUNS; run++) {
      const killed = start('recorder', [file, `run-${run}`, 'forever'], /^ready /);
      tails[(await killed.line).slice('ready '.length)] = (tails[(await killed.line).slice('ready '.length)] ?? 0) + 1;
      await pause(Math.random() * 20);
      killed.child.kill('SIGKILL');
      await killed.exited;
      if (run % 2 === 1) appendFileSync(file, '{"v":1,"session":"run-' + run + '","seq":');
    }
    const last = start('recorder', [file, 'last', '30'], /^done /);
    await last.line;
    await last.exited;
    const entries = parseRecording(readFileSync(file, 'utf8')); // whole: no torn line, nothing glued
    const sessions = new Map<string, number>();
    for (const e of entries) sessions.set(e.session, (sessions.get(e.session) ?? 0) + 1);
    expect(sessions.get('last')).toBe(61); // create + 30 × (begin, end)
    for (let run = 0; run < RUNS; run++) expect(sessions.get(`run-${run}`)).toBeGreaterThan(40);
    expect(replayRecording(entries).divergences).toEqual([]);
    console.log(
      `recording crashes: ${RUNS} kills, each restart appending; reopened tails ${JSON.stringify(tails)}; ${entries.length} entries replay`,
    );
  }, 120_000);

  it(`should leave the old machine and layout or the new pair when the server is killed during saves (${RUNS} runs)`, async () => {
    const outcomes = { old: 0, new: 0 };
    const marker = (dir: string) => {
      const file = readMachineFile(dir, 'assistant-safety');
      const description = (file.json as { states: { READING: { description?: string } } }).states.READING.description;
      return { machine: description, layout: file.layout?.nodes.READING?.x };
    };
    const definition = JSON.parse(readFileSync(join(root, 'machines/assistant-safety.json'), 'utf8'));
    for (let run = 0; run < RUNS; run++) {
      const dir = join(out, `machines-${run}`);
      mkdirSync(dir);
      cpSync(join(root, 'machines/assistant-safety.json'), join(dir, 'assistant-safety.json'));
      const appDir = join(out, 'app');
      mkdirSync(appDir, { recursive: true });
      writeFileSync(join(appDir, 'index.html'), '<!doctype html>');
      const initial = marker(dir);
      const server = start('server', [dir, appDir], /^http:/);
      const url = new URL(await server.line);
      const token = url.searchParams.get('token')!;
      let base = readMachineFile(dir, 'assistant-safety');
      let version = base.version;
      let layoutVersion = base.layoutVersion;
      let acknowledged = 0;
      let n = 0;
      let killed = false;
      let killer: Promise<void> | undefined;
      while (!killed) {
        n++;
        definition.states.READING.description = `save ${n}`;
        const res = await fetch(`${url.origin}/api/machines/assistant-safety`, {
          method: 'PUT',
          headers: { 'x-assistant-safety-token': token, 'content-type': 'application/json' },
          body: JSON.stringify({
            definition,
            layout: { version: 1, nodes: { READING: { x: n, y: 0 } } },
            baseVersion: version,
            baseLayoutVersion: layoutVersion,
          }),
          signal: AbortSignal.timeout(20_000),
        }).catch(() => undefined);
        if (!res) break;
        expect(res.status).toBe(200);
        const saved = (await res.json()) as { version: string; layoutVersion: string };
        version = saved.version;
        layoutVersion = saved.layoutVersion;
        acknowledged = n;
        // Once saves flow, the kill lands at a random moment among them.
        killer ??= pause(Math.random() * 80).then(() => {
          killed = true;
          server.child.kill('SIGKILL');
        });
      }
      await killer;
      await server.exited;
      // What a restarted server (or any reader) sees: recovery first, then the files.
      const seen = marker(dir);
      const pair = (k: number) => (k === 0 ? initial : { machine: `save ${k}`, layout: k });
      if (JSON.stringify(seen) === JSON.stringify(pair(acknowledged))) outcomes.old++;
      else {
        expect(seen).toEqual(pair(acknowledged + 1)); // the save in flight landed whole
        outcomes.new++;
      }
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp') || f.endsWith('.journal'))).toEqual([]);
      base = readMachineFile(dir, 'assistant-safety');
      expect(base.json).toBeTruthy();
    }
    console.log(
      `save crashes: ${RUNS} runs, the last acknowledged pair ${outcomes.old}, the pair in flight ${outcomes.new}, mixed 0`,
    );
  }, 120_000);
});
