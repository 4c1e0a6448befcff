import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { edit, events } from './fixtures.js';
import { bundleHook, runHook } from './hookProcess.js';

/*
 * Every read of an event has a deadline, and a missed one denies (exit 2, the reason on stderr):
 * a FIFO planted as a session file is refused without waiting on it, and a stdin that never
 * closes ends at --deadline-ms.
 */

let bundle: string;
beforeAll(() => {
  bundle = bundleHook();
}, 60_000);

describe('the hook’s deadline', () => {
  it('refuses a FIFO as session file instead of waiting on it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hook-fifo-'));
    mkdirSync(join(dir, 'fifo'), { mode: 0o700 });
    const fifo = spawnSync('sh', ['-c', 'mkfifo -m 600 "$0"', join(dir, 'fifo', '1.json')], { encoding: 'utf8' });
    expect(fifo.status, fifo.stderr).toBe(0);
    const run = await runHook(bundle, dir, events('fifo').pre('Edit', edit(), 'w1'));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/session file .*1\.json is not trusted: it is not a regular file/);
  });

  it('denies when stdin never closes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hook-stdin-'));
    const child = spawn(process.execPath, [bundle, '--deadline-ms', '300'], {
      env: { ...process.env, ASSISTANT_SAFETY_STATE_DIR: dir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.write('{"hook_event_name": "PreToolUse", ');
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    const code = await new Promise((resolve) => child.on('close', resolve));
    child.stdin.destroy();
    expect(code).toBe(2);
    expect(stderr).toMatch(/no answer within 300 ms \(reading the hook input on stdin\); the call is refused/);
  }, 20_000);

  it('refuses a deadline that is not a positive whole number', async () => {
    const run = await runHook(bundle, mkdtempSync(join(tmpdir(), 'hook-dl-')), events('d').pre('Edit', edit(), 'w'), [
      '--deadline-ms',
      'soon',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--deadline-ms must be a positive whole number/);
  });
});
