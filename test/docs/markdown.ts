import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/*
 * What the docs tests need from Markdown: the pages, their links, and the
 * anchors their headings get (GitHub's rule: lower case, punctuation dropped,
 * spaces to hyphens, a repeated heading gets -1, -2, ...).
 */

/** README.md and every Markdown file under docs/, as repository-relative paths. */
export function docPages(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? walk(join(dir, d.name)) : d.name.endsWith('.md') ? [join(dir, d.name)] : [],
    );
  return ['README.md', ...(existsSync('docs') ? walk('docs') : [])];
}

/** The text outside fenced code blocks (each fenced line becomes empty, so line numbers stay). */
export function prose(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}

/** One link of a page: where it points and the line it is on. */
export interface Link {
  target: string;
  line: number;
}

/** Inline links and images `[text](target)` and reference definitions `[label]: target`, outside code. */
export function linksOf(markdown: string): Link[] {
  const links: Link[] = [];
  prose(markdown)
    .split('\n')
    .forEach((raw, i) => {
      const line = raw.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length)); // inline code is not a link
      for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
        links.push({ target: m[1]!, line: i + 1 });
      const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
      if (definition) links.push({ target: definition[1]!, line: i + 1 });
    });
  return links;
}

/** The anchor GitHub gives a heading's text. */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link counts by its text
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a page defines: its headings' slugs (numbered when repeated) and explicit `id`/`name` anchors. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(markdown).split('\n')) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]!);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  return anchors;
}

/** Whether a path names an existing file or folder. */
export function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A page's text. */
export const read = (path: string) => readFileSync(path, 'utf8');
