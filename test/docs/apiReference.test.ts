import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as api from 'assistant-safety';
import { entries, exportsOf, program } from './entries.js';
import { exists, linksOf, read } from './markdown.js';

/*
 * docs/api.md has one section per package entry, headed `## \`<specifier>\``.
 * Every name the entry exports (values and types) is named in its section (or
 * in a docs page the section links to, for an entry with a page of its own),
 * and every name in the first column of the section's tables is exported by it.
 */

const page = readFileSync('docs/api.md', 'utf8');

/** The section of docs/api.md for one entry, or undefined. */
function sectionOf(specifier: string): string | undefined {
  const heading = '\n## `' + specifier + '`\n';
  const start = page.indexOf(heading);
  if (start < 0) return undefined;
  const end = page.indexOf('\n## ', start + heading.length);
  return page.slice(start + heading.length, end < 0 ? undefined : end);
}

/** The docs pages a section links to (an entry documented on its own page says so with a link). */
function linkedPages(section: string): string[] {
  return linksOf(section)
    .map((l) => l.target.split('#')[0]!)
    .filter((t) => t.endsWith('.md') && !/^[a-z]+:/i.test(t))
    .map((t) => join('docs', t))
    .filter(exists);
}

/** Names in backticks in the first cell of each table row (`name` or `name(args)`). */
function tabledNames(section: string): string[] {
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Za-z_$][\w$]*)(?:\([^`]*\))?`/g)].map((m) => m[1]!));
}

describe('the API reference (docs/api.md)', () => {
  // Building the TypeScript program over every entry takes seconds (tens on a loaded machine).
  beforeAll(() => void program(), 180_000);

  for (const entry of entries) {
    describe(entry.specifier, () => {
      it('should have a section', () => {
        expect(sectionOf(entry.specifier), `docs/api.md needs a "## \`${entry.specifier}\`" section`).toBeDefined();
      });

      it('should name every export of the entry (in its section, or in a docs page the section links to)', () => {
        const section = sectionOf(entry.specifier) ?? '';
        const text = [section, ...linkedPages(section).map(read)].join('\n');
        const named = (name: string) => text.includes('`' + name + '`') || text.includes('`' + name + '(');
        const missing = exportsOf(entry)
          .map((e) => e.name)
          .filter((name) => !named(name));
        expect(missing, `exports of ${entry.file} missing from its section of docs/api.md`).toEqual([]);
      });

      it('should list only names the entry exports', () => {
        const exported = new Set(exportsOf(entry).map((e) => e.name));
        const stale = tabledNames(sectionOf(entry.specifier) ?? '').filter((name) => !exported.has(name));
        expect(stale, `names in docs/api.md that ${entry.file} does not export`).toEqual([]);
      });
    });
  }

  it('should have no section for an entry that does not exist', () => {
    const specifiers = new Set(entries.map((e) => e.specifier));
    const sections = [...page.matchAll(/^## `([^`]+)`$/gm)].map((m) => m[1]!);
    expect(sections.filter((s) => !specifiers.has(s))).toEqual([]);
  });

  it('should export from the root every name the public contract promises', () => {
    for (const name of [
      'ErrCodeFSMBlocked',
      'ErrCodeStrictResolution',
      'RECOVERY_TTL_MS',
      'safetyMachine',
      'createSafetySession',
      'restoreSafetySession',
      'FSMBlockedError',
      'createClassifier',
      'classifyToolCall',
      'pulseClassifier',
      'parseRecording',
      'replayRecording',
      'createToolLoop',
    ]) {
      expect(api, name).toHaveProperty(name);
    }
  });
});
