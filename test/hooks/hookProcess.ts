import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from '../server/helpers.js';

/*
 * The hook command as Claude Code runs it: one process per event, the event's JSON on stdin.
 * The hook entry is bundled into one file first (what a hook process should load: plain node
 * starts in tens of milliseconds, a TypeScript loader would take seconds).
 */

/** Bundles the hook entry (`src/cli/hookBin.ts`) into one file; returns its path. */
export function bundleHook(): string {
  const out = join(mkdtempSync(join(tmpdir(), 'hook-bundle-')), 'hook.mjs');
  const result = spawnSync(
    join(root, 'node_modules', '.bin', 'esbuild'),
    [
      join(root, 'src/cli/hookBin.ts'),
      '--bundle',
      '--platform=node',
      '--format=esm',
      `--outfile=${out}`,
      // CommonJS dependencies bundled into ESM (ioredis, for --redis) require node's modules.
      "--banner:js=import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      '--log-level=error',
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`bundling the hook failed: ${result.stderr}`);
  return out;
}

export interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The parsed stdout, when there was any. */
  json?: Record<string, unknown>;
}

/** Runs one hook event in its own process (`env` set on top of this one's). */
export function runHook(
  bundle: string,
  stateDir: string,
  event: unknown,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<HookRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle, ...args], {
      env: { ...process.env, ASSISTANT_SAFETY_STATE_DIR: stateDir, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += String(d)));
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    child.on('error', reject);
    child.on('close', (code) => {
      const text = stdout.trim();
      resolve({ code, stdout, stderr, ...(text && { json: JSON.parse(text) as Record<string, unknown> }) });
    });
    child.stdin.end(typeof event === 'string' ? event : JSON.stringify(event));
  });
}

/** The decision a PreToolUse answer carries: `allow` when there is no answer (the call goes on). */
export function decisionOf(run: HookRun): { decision: string; reasonCode?: string } {
  if (run.code !== 0) return { decision: `exit ${run.code}` };
  const out = run.json?.hookSpecificOutput as
    { permissionDecision?: string; permissionDecisionReason?: string } | undefined;
  if (!out) return { decision: 'allow' };
  return { decision: out.permissionDecision ?? 'none', reasonCode: reasonCodeOf(out.permissionDecisionReason) };
}

/** The block's code a reason ends with (`Read src/a.ts first: ... [NO_VALIDATED_TARGET]`). */
export function reasonCodeOf(reason: string | undefined): string | undefined {
  return /\[([A-Z_]+)\]$/.exec(reason ?? '')?.[1];
}
