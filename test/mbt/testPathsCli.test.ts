import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

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
    expect(out.join('\n')).toContain('transitions: 27/27 (100%)');
    const xml = readFileSync(file, 'utf8');
    const tests = Number(/<testsuites [^>]*tests="(\d+)"/.exec(xml)![1]);
    expect(xml.match(/<testcase /g)?.length).toBe(tests);
    expect(xml).toContain('failures="0"');
  });
});
