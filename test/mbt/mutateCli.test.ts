import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/runCli.js';

describe('assistant-safety mutate', () => {
  it('should exit 2 naming the problem for a malformed machine file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mbt-mutate-'));
    writeFileSync(
      join(dir, 'bad.json'),
      JSON.stringify({ id: 'x', description: 'x', initial: 'NOWHERE', guards: {}, actions: {}, states: {} }),
    );
    const bad = await runCli(['mutate', '--machine', join(dir, 'bad.json')]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('initial: unknown state "NOWHERE"');
    const missing = await runCli(['mutate', '--machine', join(dir, 'missing.json')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('missing.json');
  });

  it('should exit 2 on an unknown option', async () => {
    expect((await runCli(['mutate', '--frobnicate'])).code).toBe(2);
  });
});
