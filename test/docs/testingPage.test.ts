import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { invariants } from 'assistant-safety/testing';

const page = readFileSync('docs/testing.md', 'utf8');

describe('the QA page (docs/testing.md)', () => {
  it('should list every invariant with its id, name and sentence as in src/testing/invariants.ts', () => {
    // Prettier pads table cells; compare the trimmed cells.
    const rows = page
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
      expect(page).toContain(`npx assistant-safety ${command}`);
  });
});
