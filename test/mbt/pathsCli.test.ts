import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/runCli.js';

describe('assistant-safety paths', () => {
  it('should write the shortest paths as Markdown with readable names', async () => {
    const { code, out } = await runCli(['paths', '--format', 'md', '--skip-mutants']);
    expect(code).toBe(0);
    expect(out).toMatch(/^# QA report: /);
    expect(out).toContain('<summary>1. RESOLVING · begin resolve ⇒ RESOLVING, resolve allowed</summary>');
    // The causal story: a read that ran beside the write lands after it and does not verify it.
    expect(out).toMatch(
      /<summary>\d+\. RESOLVING · [^\n]*begin read · [^\n]*write · read ok \(began before the write\) ⇒ VERIFYING<\/summary>\n/,
    );
  });

  it('should write JSON plans to --out DIR for other tools', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mbt-paths-'));
    const { code, out } = await runCli(['paths', '--strategy', 'simple', '--depth', '2', '--out', dir]);
    expect(code).toBe(0);
    expect(out).toContain('paths-simple.json');
    const doc = JSON.parse(readFileSync(join(dir, 'paths-simple.json'), 'utf8'));
    expect(doc.paths).toBe(doc.plans.length);
    expect(doc.plans.every((p: { steps: unknown[] }) => p.steps.length <= 2)).toBe(true);
    expect(doc.plans[0].steps[0]).toMatchObject({ label: expect.any(String), expect: { state: expect.any(String) } });
  });

  it('should write a JUnit test plan with one testcase a path', async () => {
    const { code, out } = await runCli(['paths', '--format', 'junit']);
    expect(code).toBe(0);
    const json = JSON.parse((await runCli(['paths'])).out);
    expect(out.match(/<testcase /g)?.length).toBe(json.plans.length);
  });

  it('should exit 2 on bad arguments, naming them', async () => {
    expect((await runCli(['paths', '--format', 'pdf'])).err).toContain(
      '--format must be json, md, html or junit, got "pdf"',
    );
    expect((await runCli(['paths', '--strategy', 'simple', '--depth', '0'])).code).toBe(2);
    expect((await runCli(['paths', '--strategy', 'longest'])).code).toBe(2);
  });
});
