import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

/*
 * A Claude Code transcript audited with no rules file: Claude Code's own tools are judged as the
 * hook judges them (Read a read, Edit a write, Bash by its command line). Before, every call was an undeclared write and a
 * read-then-edit session showed 100 % blocked at its first call.
 */
const line = (n: number, type: string, content: unknown[]) => ({
  type,
  sessionId: 's1',
  uuid: `u${n}`,
  parentUuid: n === 0 ? null : `u${n - 1}`,
  isSidechain: false,
  timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  message: { role: type, content },
});
const use = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });
const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });

function transcript(calls: [string, string, unknown][]): string {
  const lines: unknown[] = [line(0, 'user', [{ type: 'text', text: 'fix a.ts' }])];
  let n = 1;
  for (const [id, name, input] of calls) {
    lines.push(line(n++, 'assistant', [use(id, name, input)]));
    lines.push(line(n++, 'user', [result(id)]));
  }
  lines.push(line(n, 'assistant', [{ type: 'text', text: 'done' }]));
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

async function audit(text: string) {
  const file = join(mkdtempSync(join(tmpdir(), 'audit-cc-')), 'session.jsonl');
  writeFileSync(file, text);
  const out: string[] = [];
  const code = await main(['audit', file], { out: (t) => out.push(t), err: () => undefined });
  return { code, report: JSON.parse(out.join('\n')) };
}

describe("a Claude Code transcript's own tools, with no rules file", () => {
  it('should judge Read a read and Edit a write, as the hook does', async () => {
    const { code, report } = await audit(
      transcript([
        ['t1', 'Read', { file_path: '/srv/a.ts' }],
        ['t2', 'Edit', { file_path: '/srv/a.ts', old_string: 'a', new_string: 'b' }],
        ['t3', 'Read', { file_path: '/srv/a.ts' }],
      ]),
    );
    expect(code).toBe(0);
    expect(report.traces).toBe(1);
    expect(report.calls.blocked).toBe(0);
    expect(report.undeclared).toEqual([]);
  });

  it('should judge Bash by its command and the todo list as the hook does, and leave MCP tools to the rules', async () => {
    const { report } = await audit(
      transcript([
        ['t1', 'Bash', { command: 'ls' }],
        ['t2', 'TodoWrite', { todos: [] }],
        ['t3', 'WebFetch', { url: 'https://example.com' }],
        ['t4', 'mcp__ci__deploy', {}],
      ]),
    );
    const tool = (name: string) => report.tools.find((t: { tool: string }) => t.tool === name);
    expect(tool('Bash').kinds).toEqual({ read: 1 });
    expect(tool('TodoWrite')).toMatchObject({ kinds: { write: 1 }, blocked: 0 });
    expect(tool('WebFetch').kinds).toEqual({ read: 1 });
    expect(report.undeclared).toEqual(['mcp__ci__deploy']);
  });
});
