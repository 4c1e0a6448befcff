import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invariants } from 'assistant-safety/testing';
import { packageRoot } from '../../src/node/packageRoot.js';

const readme = readFileSync(join(packageRoot(), 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Model-based testing (QA)'), readme.indexOf('## The tool loop harness'));

describe('the README section for QA', () => {
  it('should list every invariant with its id, name and sentence as in src/mbt/invariants.ts', () => {
    // Prettier pads table cells; compare the trimmed cells.
    const rows = section
      .split('\n')
      .filter((line) => /^\|\s*I\d+\s*\|/.test(line))
      .map((line) =>
        line
          .slice(1, -1)
          .split(/(?<!\\)\|/)
          .map((cell) => cell.trim().replace(/\\\|/g, '|')),
      );
    expect(rows).toEqual(invariants.map((i) => [i.id, i.name, i.sentence]));
  });

  it('should document every QA command', () => {
    for (const command of ['check', 'paths --format md', 'test-paths --junit out.xml', 'mutate'])
      expect(section).toContain(`npx assistant-safety ${command}`);
  });
});
