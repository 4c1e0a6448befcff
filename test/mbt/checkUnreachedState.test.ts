import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

/*
 * A state no transition leads to holds every invariant vacuously: `check` says it is never reached
 * instead of passing it in silence (test-paths already fails its coverage).
 */
async function run(args: string[]) {
  const out: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: () => undefined });
  return { code, out: out.join('\n') };
}

describe('check on a machine with a state nothing reaches', () => {
  it('should warn about that state, in text and in JSON, and only about it', async () => {
    const machine = JSON.parse(readFileSync(join('machines', 'assistant-safety.json'), 'utf8')) as {
      states: Record<string, unknown>;
    };
    machine.states['ORPHAN'] = { description: 'nothing leads here', on: {} };
    const file = join(mkdtempSync(join(tmpdir(), 'check-orphan-')), 'machine.json');
    writeFileSync(file, JSON.stringify(machine));
    const text = await run(['check', file]);
    expect(text.code).toBe(0);
    expect(text.out.match(/^warning: .*$/gm)).toEqual([
      'warning: state ORPHAN is never reached (no transition leads to it): no invariant is checked there',
    ]);
    const json = await run(['check', file, '--json']);
    expect(JSON.parse(json.out).unreachedStates).toEqual(['ORPHAN']);
  }, 120_000);

  it('should warn about nothing for the shipped machine', async () => {
    const json = await run(['check', '--json']);
    expect(JSON.parse(json.out).unreachedStates).toEqual([]);
  }, 120_000);
});
