import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.js';

/*
 * Patrol's run machine (machines/patrol.json) through the commands: export writes it as the editor's
 * buttons do, and the safety-only commands say what it is instead of a wall of "unknown event" lines.
 */
describe('a machine of another kind', () => {
  it('should be exported with its own kind', async () => {
    const mermaid = await runCli(['export', '--format', 'mermaid', '--machine', 'machines/patrol.json']);
    expect(mermaid.code).toBe(0);
    expect(mermaid.out).toMatch(/^stateDiagram-v2\n/);
    expect(mermaid.out).toContain('[*] --> idle');
    expect(mermaid.err).toBe('');
    const scxml = await runCli(['export', '--format', 'scxml', '--machine', 'machines/patrol.json']);
    expect(scxml.code).toBe(0);
    expect(scxml.out).toContain('initial="idle"');
  });

  it('should be named, in one line, by the commands that take safety machines only', async () => {
    for (const args of [
      ['test-paths', '--machine', 'machines/patrol.json'],
      ['replay', 'recordings/two-writes-one-batch.jsonl', '--machine', 'machines/patrol.json'],
    ]) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toBe(
        'machines/patrol.json: a patrol machine (its id says so); this command takes safety machines only (check, paths, mutate and export take either)',
      );
    }
  });
});
