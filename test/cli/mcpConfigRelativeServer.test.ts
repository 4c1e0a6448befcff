import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.js';

/*
 * The client starts the gateway (and the server after it) in a folder of its own, so a server file
 * given relative to this one is not found there: mcp-config says so, with the absolute path to give.
 */
describe('mcp-config with a server file given relative to this folder', () => {
  it('should warn, naming the absolute path, and still print the entry', async () => {
    const r = await runCli(['mcp-config', 'cursor', '--', 'node', 'examples/readme-session.ts']);
    expect(r.code).toBe(0);
    expect(r.err).toBe(
      `mcp-config: warning: examples/readme-session.ts is relative to this folder; the client starts the server elsewhere: give ${resolve('examples/readme-session.ts')}`,
    );
    expect(r.out).toContain('examples/readme-session.ts');
  });

  it('should say nothing for a command and arguments that name no file here', async () => {
    const r = await runCli([
      'mcp-config',
      'cursor',
      '--',
      'npx',
      '-y',
      '@modelcontextprotocol/server-filesystem',
      '/tmp',
    ]);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
  });
});
