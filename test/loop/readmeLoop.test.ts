import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const section = () => readFileSync('README.md', 'utf8').split('## The tool loop harness')[1]!.split('\n## ')[0]!;

describe('the README tool loop example', () => {
  it('should be the same code as examples/readme-loop.ts', () => {
    const example = readFileSync('examples/readme-loop.ts', 'utf8');
    expect(section()).toContain('```ts\n' + example + '```');
  });

  it('should run as written, and print what the README says it prints', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'examples/readme-loop.ts'], { encoding: 'utf8' });
    expect(out).toMatch(/^toolu_01 pulse_control \(write\): blocked FSM_BLOCKED$/m);
    expect(out).toMatch(/^final answer refused: .*pulse_control\.$/m);
    expect(out).toMatch(/^vm-101 was restarted and reports running\.\nsession ends in READING$/m);
    expect(section()).toContain('```text\n' + out + '```');
  });
});
