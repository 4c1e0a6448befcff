import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeFigure, type Figure } from './measure.js';
import { HOOK_NONCE_HEADER, HOOK_PROOF_HEADER, hookProof } from '../src/hooks/serveProof.js';

/*
 * The Claude Code hook end to end: process start to answer, one process per event, as Claude Code
 * runs it (PreToolUse and PostToolUse of a Read, alternately, on one saved session), against
 * `node -e ""` on the same machine in the same run. Two ways to run the hook: the installed
 * command (`bin.js hook claude-code`, which loads only the hook's modules) and the hook entry
 * bundled into one file.
 */

export interface HookSizes {
  /** Hook processes per run and route. */
  events: number;
  /** Measured runs, the routes interleaved. */
  runs: number;
}

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));

function bundle(dir: string): string {
  const out = join(dir, 'hook.mjs');
  const result = spawnSync(
    path('../node_modules/.bin/esbuild'),
    [
      path('../src/cli/hookBin.ts'),
      '--bundle',
      '--platform=node',
      '--format=esm',
      `--outfile=${out}`,
      '--log-level=error',
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`bundling the hook failed: ${result.stderr}`);
  return out;
}

/** Milliseconds from spawn to exit of one process fed `input` on stdin. */
function timed(args: string[], input: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(performance.now() - start) : reject(new Error(`exit ${code}: ${stderr}`)),
    );
    child.stdin.end(input);
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export async function hookFigures(sizes: HookSizes): Promise<Figure[]> {
  const bin = path('../dist/src/cli/bin.js');
  if (!existsSync(bin)) throw new Error('the hook bench runs the built command: run `npm run build:lib` first');
  const dir = mkdtempSync(join(tmpdir(), 'bench-hook-'));
  try {
    const bundled = bundle(dir);
    const env = { ...process.env, ASSISTANT_SAFETY_STATE_DIR: join(dir, 'state') };
    let n = 0;
    const event = () => {
      const id = `t${n >> 1}`;
      const base = {
        session_id: 'bench',
        transcript_path: '/t.jsonl',
        cwd: '/repo',
        tool_name: 'Read',
        tool_input: { file_path: '/repo/a.ts' },
        tool_use_id: id,
      };
      return JSON.stringify(
        n++ % 2 === 0
          ? { ...base, hook_event_name: 'PreToolUse' }
          : { ...base, hook_event_name: 'PostToolUse', tool_response: {} },
      );
    };
    // A resident server (`hook serve`) on its own state folder, for the routes through it.
    const servedDir = join(dir, 'served');
    const servedEnv = { ...process.env, ASSISTANT_SAFETY_STATE_DIR: servedDir };
    const resident = spawn(process.execPath, [bin, 'hook', 'serve', '--state-dir', servedDir], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const serveFile = join(servedDir, 'serve.json');
    for (let i = 0; i < 300 && !existsSync(serveFile); i++) await new Promise((r) => setTimeout(r, 20));
    if (!existsSync(serveFile)) throw new Error('hook serve did not start');
    const { port, token } = JSON.parse(readFileSync(serveFile, 'utf8')) as { port: number; token: string };
    const overHttp = async () => {
      const start = performance.now();
      const nonce = randomBytes(16).toString('hex');
      const res = await fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        headers: { [HOOK_NONCE_HEADER]: nonce, [HOOK_PROOF_HEADER]: hookProof(token, nonce) },
        body: JSON.stringify({ args: [], input: event() }),
      });
      const answer = (await res.json()) as { code: number; err: string };
      if (answer.code !== 0) throw new Error(`hook serve: exit ${answer.code}: ${answer.err}`);
      return performance.now() - start;
    };
    const routes = {
      bare: () => timed(['-e', ''], '', env),
      bundled: () => timed([bundled], event(), env),
      installed: () => timed([bin, 'hook', 'claude-code'], event(), env),
      served: () => timed([bin, 'hook', 'claude-code'], event(), servedEnv),
      http: overHttp,
    };
    const runs: Record<keyof typeof routes, number[]> = { bare: [], bundled: [], installed: [], served: [], http: [] };
    await routes.bundled(); // warm the file cache and create the session
    await routes.http();
    for (let r = 0; r < sizes.runs; r++) {
      for (const route of Object.keys(routes) as (keyof typeof routes)[]) {
        const times: number[] = [];
        for (let i = 0; i < sizes.events; i++) times.push(await routes[route]());
        runs[route].push(median(times));
      }
    }
    resident.kill('SIGTERM');
    await new Promise((r) => resident.once('exit', r));
    const baseline = { name: 'node -e ""', runs: runs.bare };
    return [
      makeFigure({
        suite: 'hook',
        name: 'hook event, bundled into one file (process start to answer)',
        unit: 'ms',
        better: 'lower',
        runs: runs.bundled,
        baseline,
        note: 'PreToolUse and PostToolUse of a Read on a saved session, one process each',
      }),
      makeFigure({
        suite: 'hook',
        name: 'hook event, installed command (bin.js hook claude-code)',
        unit: 'ms',
        better: 'lower',
        runs: runs.installed,
        baseline,
        note: 'no hook serve running: the small entry finds none and loads the gate',
      }),
      makeFigure({
        suite: 'hook',
        name: 'hook event, installed command with hook serve running',
        unit: 'ms',
        better: 'lower',
        runs: runs.served,
        baseline,
        note: 'the small entry hands the event to the resident server over 127.0.0.1',
      }),
      makeFigure({
        suite: 'hook',
        name: 'hook event, one HTTP request to hook serve (no process)',
        unit: 'ms',
        better: 'lower',
        runs: runs.http,
        note: "what an HTTP hook entry would cost: a POST with the token's proof, the answer decided and saved",
      }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
