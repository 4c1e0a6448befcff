import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const page = () => readFileSync('docs/tool-loop.md', 'utf8');

describe('the tool loop example in docs/tool-loop.md', () => {
  it('should be the same code as examples/readme-loop.ts', () => {
    const example = readFileSync('examples/readme-loop.ts', 'utf8');
    expect(page()).toContain('```ts\n' + example + '```');
  });

  it('should run as written, and print what the page says it prints', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'examples/readme-loop.ts'], { encoding: 'utf8' });
    expect(out).toMatch(/^toolu_01 pulse_control \(write\): blocked FSM_BLOCKED$/m);
    expect(out).toMatch(/^final answer refused: .*pulse_control\.$/m);
    expect(out).toMatch(/^vm-101 was restarted and reports running\.\nsession ends in READING$/m);
    expect(page()).toContain('```text\n' + out + '```');
  });
});
