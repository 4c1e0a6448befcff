import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryRecorder, createSafetySession } from 'assistant-safety';
import { main } from '../../src/cli/main.js';
import { manualClock } from './clock.js';
import { driveEverything } from './fixtures.js';

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function recordingFile(text?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'as-cli-'));
  const path = join(dir, 'r.jsonl');
  if (text === undefined) {
    const clock = manualClock();
    const recorder = createMemoryRecorder();
    driveEverything(createSafetySession({ recorder, now: clock.now, id: 'cli' }), clock);
    text = recorder.toJSONL();
  }
  writeFileSync(path, text);
  return { dir, path, text };
}

describe('assistant-safety CLI', () => {
  it('should print help and the version', async () => {
    const help = await run('--help');
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/Usage: assistant-safety <command>/);
    expect(help.out).toMatch(/replay/);
    const version = await run('--version');
    expect(version.out).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
    expect((await run('replay', '--help')).out).toMatch(/Exit codes/);
  });

  it('should refuse an unknown command with exit code 2', async () => {
    const r = await run('frobnicate');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown command "frobnicate"/);
  });

  it('should replay a good recording with exit 0 and a summary', async () => {
    const { path } = recordingFile();
    const r = await run('replay', path);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/session cli: ends in RESOLVING/);
    expect(r.out).toMatch(/no divergence/);
  });

  it('should exit 1 and list divergences against another machine', async () => {
    const { path, dir } = recordingFile();
    const def = JSON.parse(readFileSync('machines/assistant-safety.json', 'utf8'));
    def.states.WRITING.on.BEGIN_CALL = [];
    const machine = join(dir, 'm.json');
    writeFileSync(machine, JSON.stringify(def));
    const r = await run('replay', path, '--machine', machine);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/divergence/);
    expect(r.out).toMatch(/beginToolCall\): decision recorded "blocked", now "allowed"/);
  });

  it('should exit 2 on a bad recording, naming the line', async () => {
    const { path } = recordingFile('{"v":1}\n');
    const r = await run('replay', path);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/line 1: /);
    expect((await run('replay', '/no/such/file.jsonl')).code).toBe(2);
    expect((await run('replay')).code).toBe(2);
  });

  it('should exit 2 on a malformed machine file', async () => {
    const { path, dir } = recordingFile();
    const machine = join(dir, 'm.json');
    writeFileSync(machine, '{"id": "x"}');
    const r = await run('replay', path, '--machine', machine);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/invalid machine definition/);
  });

  it('should list the first --max-divergences divergences and count the rest', async () => {
    const { path, dir } = recordingFile();
    const def = JSON.parse(readFileSync('machines/assistant-safety.json', 'utf8'));
    def.states.WRITING.on.BEGIN_CALL = [];
    const machine = join(dir, 'm.json');
    writeFileSync(machine, JSON.stringify(def));
    const all = await run('replay', path, '--machine', machine, '--json');
    const { divergenceCount } = JSON.parse(all.out);
    expect(divergenceCount).toBeGreaterThan(1);
    const r = await run('replay', path, '--machine', machine, '--max-divergences', '1');
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${divergenceCount} divergences:`);
    expect(r.out).toMatch(/beginToolCall\): decision recorded "blocked", now "allowed"/);
    expect(r.out).toContain(`... and ${divergenceCount - 1} more`);
    expect((await run('replay', path, '--max-divergences', 'lots')).code).toBe(2);
  });

  it('should exit 2 when the recording cannot be read', async () => {
    const { dir } = recordingFile();
    const r = await run('replay', dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot read/);
  });

  it('should replay the complete lines of a torn recording, warn, and exit 1', async () => {
    const full = recordingFile().text;
    const { path } = recordingFile(full.slice(0, -30));
    const r = await run('replay', path);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/is torn/);
  });

  it('should run as the built bin', () => {
    const bin = 'dist/src/cli/bin.js';
    expect(existsSync(bin), 'run `npm run build` first (npm test does)').toBe(true);
    expect(execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' })).toMatch(/Usage: assistant-safety/);
    const { path } = recordingFile('nonsense\n');
    const r = spawnSync(process.execPath, [bin, 'replay', path], { encoding: 'utf8' });
    expect(r.status).toBe(2);
  });
});
