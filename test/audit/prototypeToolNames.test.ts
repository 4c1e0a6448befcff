import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

/*
 * Counts by tool are own-property maps: tools named `constructor`, `__proto__` and `toString`
 * count like any other in the JSON report, the Markdown and HTML reports, and `stats` over the
 * recordings the audit wrote.
 */

const TOOLS = ['constructor', '__proto__', 'toString', 'toString'];
const call = (id: string, name: string) => ({ id, type: 'function', function: { name, arguments: '{}' } });
const ROW = {
  id: 'prototype-names',
  messages: [
    { role: 'user', content: 'go' },
    ...TOOLS.flatMap((tool, i) => [
      { role: 'assistant', tool_calls: [call(`c${i}`, tool)] },
      { role: 'tool', tool_call_id: `c${i}`, content: 'ok' },
    ]),
  ],
};
// Each is a write (no rule, no read before it): blocked in RESOLVING.
// (Pairs, not an object literal: `{ __proto__: 1 }` would set a prototype, not a key.)
const EXPECTED: [string, number][] = [
  ['__proto__', 1],
  ['constructor', 1],
  ['toString', 2],
];

async function run(args: string[]) {
  const out: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: () => {} });
  expect(code).toBe(0);
  return out.join('\n');
}

describe('tools named like Object.prototype’s properties', () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-proto-'));
  const file = join(dir, 'export.jsonl');
  writeFileSync(file, JSON.stringify(ROW) + '\n');
  const auditTo = async (out: string) => {
    await run(['audit', file, '--out', join(dir, out), '--recordings', join(dir, 'rec')]);
    return readFileSync(join(dir, out), 'utf8');
  };

  it('should count right in the JSON report', async () => {
    const report = JSON.parse(await auditTo('r.json'));
    expect(Object.entries(report.blockedByTool).sort()).toEqual(EXPECTED);
    expect(Object.getPrototypeOf(report.blockedByTool)).toBe(Object.prototype);
    const tools = Object.fromEntries(report.tools.map((t: { tool: string; calls: number }) => [t.tool, t.calls]));
    expect(Object.entries(tools).sort()).toEqual(EXPECTED);
    expect(report.calls).toMatchObject({ total: 4, blocked: 4 });
  });

  it('should count right in the Markdown and HTML reports', async () => {
    const md = await auditTo('r.md');
    for (const [tool, n] of EXPECTED) expect(md).toContain(`| ${tool} | ${n} |`);
    const html = await auditTo('r.html');
    for (const [tool, n] of EXPECTED)
      expect(html).toMatch(new RegExp(`>${tool}</text><rect [^>]*></rect><text [^>]*>${n}</text>`));
  });

  it('should count right in `stats` over the recordings', async () => {
    await auditTo('r.json');
    const summary = JSON.parse(await run(['stats', join(dir, 'rec'), '--format', 'json']));
    expect(Object.entries(summary.blockedByTool).sort()).toEqual(EXPECTED);
    const table = await run(['stats', join(dir, 'rec')]);
    for (const [tool, n] of EXPECTED) expect(table).toMatch(new RegExp(`${tool}\\s+${n}\\b`));
  });
});
