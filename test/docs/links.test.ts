import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, docPages, exists, linksOf, read } from './markdown.js';

/*
 * Every relative link of README.md and docs/**.md resolves to a file of this
 * repository, and every #anchor to a heading of that page. Nothing in the docs,
 * nor in a comment anywhere in the tree, points outside the repository.
 */

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i; // https:, mailto:, ...

/** Where a page's link leads, as a repository-relative path and an anchor, or why it cannot. */
function resolveLink(page: string, target: string): { path: string; anchor?: string } | { error: string } {
  const [rawPath, anchor] = target.split('#', 2) as [string, string | undefined];
  if (rawPath.startsWith('/')) return { error: 'an absolute path: write it relative to the page' };
  const path = rawPath === '' ? page : normalize(join(dirname(page), decodeURI(rawPath)));
  if (path === '..' || path.startsWith('..' + sep) || relative('.', path).startsWith('..')) {
    return { error: 'outside the repository' };
  }
  if (!exists(path)) return { error: `${path} does not exist` };
  return anchor === undefined ? { path } : { path, anchor };
}

describe('links in README.md and docs/', () => {
  for (const page of docPages()) {
    it(`should resolve every relative link and anchor of ${page}`, () => {
      const broken: string[] = [];
      for (const link of linksOf(read(page))) {
        if (EXTERNAL.test(link.target)) continue;
        const resolved = resolveLink(page, link.target);
        if ('error' in resolved) {
          broken.push(`${page}:${link.line} ${link.target}: ${resolved.error}`);
        } else if (resolved.anchor !== undefined) {
          if (!resolved.path.endsWith('.md'))
            broken.push(`${page}:${link.line} ${link.target}: an anchor in a non-Markdown file`);
          else if (!anchorsOf(read(resolved.path)).has(resolved.anchor))
            broken.push(`${page}:${link.line} ${link.target}: no heading #${resolved.anchor} in ${resolved.path}`);
        }
      }
      expect(broken).toEqual([]);
    });
  }

  it('should check the anchors GitHub gives headings', () => {
    expect([
      ...anchorsOf('# The tool loop\n## `assistant-safety/node`\n## Unknown outcomes, and mixed APIs\n## A\n## A\n'),
    ]).toEqual(['the-tool-loop', 'assistant-safetynode', 'unknown-outcomes-and-mixed-apis', 'a', 'a-1']);
    expect(linksOf('[a](x.md#y) `[b](no.md)`\n```\n[c](no.md)\n```\n[d]: z.md\n').map((l) => l.target)).toEqual([
      'x.md#y',
      'z.md',
    ]);
  });
});

// Built from parts so this file does not name them itself.
const OUTSIDE = new RegExp(
  [
    '\\.\\./sha' + 'red',
    'shared/' + 'spec',
    'SEMANTICS' + '\\.md',
    'REFERENCE' + '\\.md',
    '\\bAPI' + '\\.md',
    '/wo' + 'rk/',
  ].join('|'),
);
const SKIP = /(^|\/)(package-lock\.json|[^/]*\.jsonl)$/;
const TEXT = /\.(ts|tsx|js|mjs|cjs|mts|json|md|css|html|sh|yml|yaml)$|(^|\/)run$/;

/**
 * The files a commit would hold (tracked, or new and not ignored): what the repository says, not the
 * scratch files another test is writing at the same moment (.scratch, dist are ignored).
 */
function treeFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return listed.split('\0').filter((f) => f !== '' && TEXT.test(f) && !SKIP.test(f) && existsSync(f));
}

describe('references outside the repository', () => {
  it('should have none in the docs, the code or its comments', () => {
    const found = treeFiles().flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (OUTSIDE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
