import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { invariants } from '../../src/testing/invariants.js';
import { defaultMachinePath } from '../../src/node/packageRoot.js';

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const dir = mkdtempSync(join(tmpdir(), 'mbt-check-'));
const shipped = () => JSON.parse(readFileSync(defaultMachinePath(), 'utf8'));

describe('assistant-safety check', () => {
  it('should exit 0 and print the figures when every invariant holds on the shipped machine', async () => {
    const { code, out } = await run(['check']);
    console.log(out);
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`\\d+ configurations, \\d+ edges, ${invariants.length} invariants`));
    expect(out).toContain('every invariant holds on every edge');
  });

  it('should exit 1 with a counterexample that reads like a story when a guard is deleted by hand', async () => {
    const machine = shipped();
    // The hand edit QA would make: VERIFYING's final-answer check no longer asks for evidence.
    delete machine.states.VERIFYING.on.CHECK_FINAL_ANSWER[1].guard;
    const file = join(dir, 'no-guard.json');
    writeFileSync(file, JSON.stringify(machine, null, 2));
    const { code, out } = await run(['check', '--machine', file]);
    console.log(out);
    expect(code).toBe(1);
    expect(out).toContain('✗ I3 No final answer about an unverified change');
    expect(out).toMatch(/Counterexample \(2 steps from a new session\):/);
    expect(out).toContain('1. RESOLVING · onToolSuccess write → now VERIFYING, wrote');
    expect(out).toContain('2. VERIFYING · final answer → allowed, stays VERIFYING');
    expect(out).toContain('Broken at step 2: a final answer in VERIFYING without evidence was allowed.');
  });

  it('should exit 1 when the write gate of READING loses its guard', async () => {
    const machine = shipped();
    // READING's last BEGIN_CALL transition is the write gate: a write starts and goes to WRITING.
    delete machine.states.READING.on.BEGIN_CALL[3].guard;
    const file = join(dir, 'no-write-guard.json');
    writeFileSync(file, JSON.stringify(machine));
    const { code, out } = await run(['check', '--machine', file, '--json']);
    expect(code).toBe(1);
    const report = JSON.parse(out);
    expect(report.violations.map((v: { id: string }) => v.id)).toContain('I11');
    expect(report.violations[0].steps.length).toBeGreaterThan(0);
  });

  it('should exit 2 with a clear message for a malformed machine file', async () => {
    const machine = shipped();
    machine.states.READING.on.BEGIN_CALL[0].guard = 'isWriet';
    const file = join(dir, 'typo.json');
    writeFileSync(file, JSON.stringify(machine));
    const bad = await run(['check', '--machine', file]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('states.READING.on.BEGIN_CALL[0].guard: unknown guard "isWriet"');
    writeFileSync(join(dir, 'torn.json'), '{"id": ');
    const torn = await run(['check', '--machine', join(dir, 'torn.json')]);
    expect(torn.code).toBe(2);
    expect(torn.err).toContain('torn.json');
  });
});
