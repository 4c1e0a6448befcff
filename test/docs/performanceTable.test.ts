import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { performanceBlock, PERFORMANCE_PAGE, tableSection } from '../../bench/readmeTable.js';
import type { BenchResults } from '../../bench/runBench.js';

/** Markdown with table padding taken out (Prettier pads cells; the writer does not). */
const unpadded = (markdown: string) =>
  markdown
    .trim()
    .split('\n')
    .map((line) =>
      line.startsWith('|')
        ? line
            .split('|')
            .map((cell) => cell.trim().replace(/^(:?)-+(:?)$/, '$1-$2'))
            .join('|')
        : line.trim(),
    )
    .join('\n');

describe('the latest run in docs/performance.md', () => {
  it('should be bench/results.json as bench/readmeTable.ts writes it', () => {
    const results = JSON.parse(readFileSync('bench/results.json', 'utf8')) as BenchResults;
    const page = readFileSync(PERFORMANCE_PAGE, 'utf8');
    expect(unpadded(tableSection(page)), 'run: node --import tsx bench/readmeTable.ts --write').toBe(
      unpadded(performanceBlock(results)),
    );
  });
});
