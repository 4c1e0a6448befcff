import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { generateTraces, openaiRow, RULES } from './traceModel.js';

/*
 * Every form of the report ends as its format expects: Markdown and JSON as text files (one final
 * newline), HTML as a well-formed page (every element closed, in order, and the page ends on
 * `</html>` and a newline). With and without a problems section, which is the last part when present.
 */

const VOID = new Set(['meta', 'br', 'hr', 'img', 'input', 'link']);

/** The open elements left, or the first mismatch, walking the tags in order (no script or comment in a report). */
function unclosed(html: string): string[] {
  const stack: string[] = [];
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][\w-]*)[^>]*?(\/?)>/g)) {
    const [, closing, name, selfClosing] = m;
    const tag = name!.toLowerCase();
    if (VOID.has(tag) || selfClosing) continue;
    if (!closing) stack.push(tag);
    else if (stack.pop() !== tag) return [`</${tag}> closes ${stack.at(-1) ?? 'nothing'}`];
  }
  return stack;
}

async function reports(withProblem: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'audit-end-'));
  writeFileSync(join(dir, 'rules.json'), JSON.stringify(RULES));
  const rows = generateTraces(12, 5).map((t) => JSON.stringify(openaiRow(t, false)));
  if (withProblem) rows.push('{not json');
  writeFileSync(join(dir, 'export.jsonl'), rows.join('\n'));
  const read = async (name: string) => {
    const code = await main(
      ['audit', join(dir, 'export.jsonl'), '--rules', join(dir, 'rules.json'), '--out', join(dir, name)],
      { out: () => {}, err: () => {} },
    );
    expect(code).toBe(0);
    return readFileSync(join(dir, name), 'utf8');
  };
  return { md: await read('r.md'), json: await read('r.json'), html: await read('r.html') };
}

describe('how each report form ends', () => {
  for (const withProblem of [false, true]) {
    it(`should end each form as its format expects (${withProblem ? 'with' : 'without'} a problems section)`, async () => {
      const { md, json, html } = await reports(withProblem);
      expect(md.endsWith('\n')).toBe(true);
      expect(md.endsWith('\n\n')).toBe(false);
      expect(md.includes('## Problems in the input')).toBe(withProblem);
      expect(json.endsWith('}\n')).toBe(true);
      expect(() => JSON.parse(json)).not.toThrow();
      expect(html.startsWith('<!doctype html>\n')).toBe(true);
      expect(html.endsWith('</html>\n')).toBe(true);
      expect(unclosed(html)).toEqual([]);
    });
  }
});
