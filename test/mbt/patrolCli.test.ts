import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/runCli.js';

describe('check, paths and mutate on the Patrol machine', () => {
  it('should check machines/patrol.json with its own invariants, the kind read from its id', async () => {
    const { code, out } = await runCli(['check', 'machines/patrol.json']);
    expect(code).toBe(0);
    expect(out).toMatch(/^machines\/patrol\.json \(patrol\): \d+ configurations, \d+ edges, 6 invariants/);
    expect(out).toContain('every invariant holds on every edge');
  });

  it('should print a counterexample for a broken Patrol machine, and take --kind', async () => {
    const json = JSON.parse(readFileSync('machines/patrol.json', 'utf8')) as {
      id: string;
      states: Record<string, { on: Record<string, Array<{ target?: string }>> }>;
    };
    json.id = 'my-patrol';
    json.states.mainPass!.on.PHASE_FAILED![0]!.target = 'done';
    const file = join(mkdtempSync(join(tmpdir(), 'patrol-cli-')), 'patrol.json');
    writeFileSync(file, JSON.stringify(json));
    // Another id: read as a safety machine unless --kind says otherwise.
    expect((await runCli(['check', file])).code).toBe(2);
    const { code, out } = await runCli(['check', file, '--kind', 'patrol']);
    expect(code).toBe(1);
    expect(out).toContain('✗ P4 exactly one record');
    expect(out).toContain('✗ P5 phases in order');
    expect(out).toMatch(/PHASE_FAILED message=failed ⇒ done/);
  });

  it('should write path plans that start idle and name each event and state', async () => {
    const { code, out } = await runCli(['paths', 'machines/patrol.json']);
    expect(code).toBe(0);
    const report = JSON.parse(out) as {
      kind: string;
      configurations: number;
      plans: Array<{ name: string; steps: Array<{ label: string; event: { type: string }; state: string }> }>;
    };
    expect(report.kind).toBe('patrol');
    expect(report.plans.length).toBeGreaterThanOrEqual(report.configurations - 1);
    expect(report.plans[0]!.steps[0]).toMatchObject({ event: { type: 'START' }, state: 'gating' });
    expect(report.plans.some((p) => p.steps.at(-1)!.state === 'done')).toBe(true);
    expect((await runCli(['paths', 'machines/patrol.json', '--format', 'html'])).code).toBe(2);
  });

  it('should kill every mutant of machines/patrol.json', async () => {
    const { code, out } = await runCli(['mutate', 'machines/patrol.json', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ kind: 'patrol', survived: 0, equivalent: 0, score: 100 });
  });
});
