import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { linksOf, read } from './markdown.js';

/*
 * The README is a front page a newcomer reads in a few minutes, and every
 * page of docs/ can be found from it.
 */

const readme = read('README.md');
const pages = readdirSync('docs').filter((f) => f.endsWith('.md') && f !== 'README.md');
const targets = (markdown: string) => linksOf(markdown).map((l) => l.target.split('#')[0]!);

describe('the front page', () => {
  it('should be at most 150 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
  });

  it('should show the two commands', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
  });

  it('should link the docs index', () => {
    expect(targets(readme)).toContain('docs/README.md');
  });
});

describe('the docs index (docs/README.md)', () => {
  it('should link every page of docs/', () => {
    const linked = new Set(targets(read('docs/README.md')));
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });
});
