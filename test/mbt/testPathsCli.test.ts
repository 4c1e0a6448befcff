import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { defaultMachinePath } from '../../src/node/packageRoot.js';

describe('assistant-safety test-paths', () => {
  it('should run every path against SafetySession, report full coverage and write JUnit XML', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mbt-junit-'));
    const file = join(dir, 'reports', 'out.xml');
    const out: string[] = [];
    const code = await main(['test-paths', '--junit', file, '--depth', '2'], {
      out: (t) => out.push(t),
      err: (t) => out.push(t),
    });
    console.log(out.join('\n'));
    expect(code).toBe(0);
    expect(out.join('\n')).toMatch(/(\d+) passed, 0 failed/);
    // Every transition of the machine, however many it has.
    const machine = JSON.parse(readFileSync(defaultMachinePath(), 'utf8')) as {
      on?: Record<string, unknown[]>;
      states: Record<string, { on?: Record<string, unknown[]> }>;
    };
    const lists = [machine.on ?? {}, ...Object.values(machine.states).map((st) => st.on ?? {})];
    const count = lists.reduce((n, on) => n + Object.values(on).reduce((m, l) => m + l.length, 0), 0);
    expect(out.join('\n')).toContain(`transitions: ${count}/${count} (100%)`);
    const xml = readFileSync(file, 'utf8');
    const tests = Number(/<testsuites [^>]*tests="(\d+)"/.exec(xml)![1]);
    expect(xml.match(/<testcase /g)?.length).toBe(tests);
    expect(xml).toContain('failures="0"');
  });

  it('should exit 1 and name the failing paths when the model and the implementation disagree', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mbt-model-'));
    const model = JSON.parse(readFileSync(defaultMachinePath(), 'utf8'));
    // The model says a failed write goes to VERIFYING; the shipped implementation sends it back to READING.
    model.states.WRITING.on.TOOL_FAILED[3].target = 'VERIFYING';
    writeFileSync(join(dir, 'model.json'), JSON.stringify(model));
    const out: string[] = [];
    const code = await main(['test-paths', '--machine', join(dir, 'model.json'), '--depth', '1'], {
      out: (t) => out.push(t),
      err: (t) => out.push(t),
    });
    const text = out.join('\n');
    expect(code).toBe(1);
    expect(text).toMatch(/\d+ passed, [1-9]\d* failed/);
    expect(text).toContain('· write fails ⇒ VERIFYING');
    expect(text).toContain('state expected "VERIFYING", got "READING"');
  });
});
