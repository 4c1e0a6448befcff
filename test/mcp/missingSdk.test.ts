import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, TSX } from './helpers.js';

/** Runs the CLI in a process where the MCP SDK cannot be found (the optional peer is not installed). */
function runWithoutSdk(args: string[]) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      ['--import', join(ROOT, 'test', 'mcp', 'withoutSdk.mjs'), '--import', TSX, BIN, ...args],
      { cwd: ROOT },
      (error, _stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
    ),
  );
}

describe('the MCP commands without the optional MCP SDK', () => {
  it('should say what to install, with exit code 2', async () => {
    const [gateway, classify] = await Promise.all([
      runWithoutSdk(['mcp-gateway', '--', 'my-mcp-server']),
      runWithoutSdk(['classify', '--', 'my-mcp-server']),
    ]);
    for (const [name, run] of [
      ['mcp-gateway', gateway],
      ['classify', classify],
    ] as const) {
      expect(run.code, name).toBe(2);
      expect(run.stderr, name).toContain('npm install @modelcontextprotocol/sdk');
    }
  }, 60_000);
});
