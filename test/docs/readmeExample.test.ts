import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('the README embedding example', () => {
  it('should be the same code as examples/readme-session.ts', () => {
    const readme = readFileSync('README.md', 'utf8');
    const example = readFileSync('examples/readme-session.ts', 'utf8');
    expect(readme).toContain('```ts\n' + example + '```');
  });

  it('should run as written and show a block, a refused final answer and a verified end', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'examples/readme-session.ts'], { encoding: 'utf8' });
    expect(out).toMatch(/reasonCode: 'NO_VALIDATED_TARGET'/);
    expect(out).toMatch(/^FINAL_ANSWER_UNVERIFIED$/m);
    expect(out).toMatch(/^READING null$/m);
    expect(out).toMatch(/^11 recorded entries$/m);
  });
});
