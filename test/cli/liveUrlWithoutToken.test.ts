import { mkdtempSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.js';

/*
 * A --live URL without its token can never reach the app. Every command that takes one refuses it
 * in one line before it starts or writes anything: before, mcp-gateway died with a stack trace from
 * the recorder, and mcp-config and hook install wrote it into configs that then failed at every start.
 * (These run with no ASSISTANT_SAFETY_LIVE_TOKEN in the environment, where the token may also be.)
 */
const NO_TOKEN = 'http://127.0.0.1:4400/';
const PROBLEM =
  '--live: has no token: give the URL `assistant-safety serve` printed (http://127.0.0.1:PORT/?token=…), or set ASSISTANT_SAFETY_LIVE_TOKEN';

describe('a --live URL without its token', () => {
  it('should stop mcp-gateway before it starts the server', async () => {
    const r = await runCli(['mcp-gateway', '--live', NO_TOKEN, '--', process.execPath, '-e', '']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(PROBLEM);
  });

  it('should stop mcp-config before it prints or writes an entry', async () => {
    const r = await runCli(['mcp-config', 'cursor', '--live', NO_TOKEN, '--', 'node', 'server.js']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(PROBLEM);
    expect(r.out).toBe('');
  });

  it('should stop hook install before it writes the settings', async () => {
    const settings = join(mkdtempSync(join(tmpdir(), 'live-token-')), 'settings.json');
    const r = await runCli([
      'hook',
      'install',
      'claude-code',
      '--command',
      'hookcmd',
      '--settings',
      settings,
      '--',
      '--live',
      NO_TOKEN,
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(PROBLEM);
    expect(existsSync(settings)).toBe(false);
  });

  it('should take the URL with its token, and pass the token on in the entry’s env', async () => {
    const r = await runCli(['mcp-config', 'cursor', '--live', `${NO_TOKEN}?token=ab12`, '--', 'node', 'server.js']);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`"${NO_TOKEN}"`);
    expect(r.out).toContain('"ASSISTANT_SAFETY_LIVE_TOKEN": "ab12"');
  });
});
