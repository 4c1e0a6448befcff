import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

/*
 * Without rules the audit classifies from what the traces declare (tool annotations, a kind),
 * lists the tools nothing declared, and opts into the name-verb heuristic only when asked.
 */

const ROW = {
  id: 'declared',
  tools: [
    { type: 'function', function: { name: 'get_status', parameters: {} }, annotations: { readOnlyHint: true } },
    { name: 'list_vms', kind: 'resolve' },
  ],
  messages: [
    { role: 'user', content: 'restart 1' },
    {
      role: 'assistant',
      tool_calls: [
        { id: 'a', function: { name: 'list_vms', arguments: '{}' } },
        { id: 'b', function: { name: 'get_status', arguments: '{"vm":1}' } },
        { id: 'c', function: { name: 'read_config', arguments: '{}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'a', content: '[1]' },
    { role: 'tool', tool_call_id: 'b', content: 'running' },
    { role: 'tool', tool_call_id: 'c', content: '{}' },
    { role: 'assistant', content: 'Nothing to do.' },
  ],
};

async function audit(...extra: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'audit-classify-'));
  writeFileSync(join(dir, 'export.jsonl'), JSON.stringify(ROW) + '\n');
  const out: string[] = [];
  expect(await main(['audit', join(dir, 'export.jsonl'), ...extra], { out: (t) => out.push(t), err: () => {} })).toBe(
    0,
  );
  return JSON.parse(out.join('\n'));
}

describe('classification help', () => {
  it('should use the annotations and kinds a trace declares and list the undeclared tools', async () => {
    const report = await audit();
    const kinds = Object.fromEntries(
      report.tools.map((t: { tool: string; kinds: object; decidedBy: string[] }) => [t.tool, [t.kinds, t.decidedBy]]),
    );
    expect(kinds).toEqual({
      list_vms: [{ resolve: 1 }, ['kind']],
      get_status: [{ read: 1 }, ['annotations']],
      read_config: [{ write: 1 }, ['default']],
    });
    expect(report.undeclared).toEqual(['read_config']);
    // An undeclared tool is a write: begun beside the discovery, before any target was found, it is blocked.
    expect(report.blocked).toEqual({ NO_VALIDATED_TARGET: 1 });
  });

  it('should decide an undeclared tool by its name only with --name-verbs, and still list it', async () => {
    const report = await audit('--name-verbs');
    expect(report.tools.find((t: { tool: string }) => t.tool === 'read_config')).toMatchObject({
      kinds: { read: 1 },
      decidedBy: ['name-verb'],
    });
    expect(report.undeclared).toEqual(['read_config']);
    expect(report.blocked).toEqual({});
  });
});
