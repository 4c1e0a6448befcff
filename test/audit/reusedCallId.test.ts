import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

/*
 * Some exports reuse a tool call id once its result has come (each assistant turn numbers its calls
 * from 0 again). Such a trace is audited, not dropped as malformed: the second call is paired with
 * the second result. An id reused while its call still waits for a result stays a problem.
 */

const RULES = { tools: { get_status: 'read', restart_vm: 'write' } };
const call = (id: string, name: string) => ({ id, type: 'function', function: { name, arguments: '{}' } });

async function audit(rows: unknown[], exitCode = 0) {
  const dir = mkdtempSync(join(tmpdir(), 'audit-reuse-'));
  writeFileSync(join(dir, 'rules.json'), JSON.stringify(RULES));
  writeFileSync(join(dir, 'export.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const out: string[] = [];
  const code = await main(['audit', join(dir, 'export.jsonl'), '--rules', join(dir, 'rules.json')], {
    out: (t) => out.push(t),
    err: () => {},
  });
  expect(code).toBe(exitCode);
  return JSON.parse(out.join('\n'));
}

describe('a tool call id reused after its result', () => {
  it('should pair the second call with the second result, not drop the trace', async () => {
    // Write, then a second write under the same id (blocked: the first is unverified), then a read
    // under that id again, which verifies the first write: the final answer is allowed.
    const report = await audit([
      {
        id: 'reused',
        messages: [
          { role: 'user', content: 'restart it' },
          { role: 'assistant', tool_calls: [call('call_0', 'get_status')] },
          { role: 'tool', tool_call_id: 'call_0', content: 'running' },
          { role: 'assistant', tool_calls: [call('call_0', 'restart_vm')] },
          { role: 'tool', tool_call_id: 'call_0', content: 'ok' },
          { role: 'assistant', tool_calls: [call('call_0', 'restart_vm')] },
          { role: 'tool', tool_call_id: 'call_0', content: 'ok' },
          { role: 'assistant', tool_calls: [call('call_0', 'get_status')] },
          { role: 'tool', tool_call_id: 'call_0', content: 'running again' },
          { role: 'assistant', content: 'Restarted and checked.' },
        ],
      },
    ]);
    expect(report).toMatchObject({ traces: 1, skipped: 0, malformed: 0, errorCount: 0 });
    expect(report.calls).toEqual({ total: 4, allowed: 3, blocked: 1, resultsIgnored: 1 });
    expect(report.blocked).toEqual({ UNVERIFIED_WRITE: 1 });
    // The read after the blocked call ran and verified the write: its result was paired with it.
    expect(report.finalAnswersBlocked).toBe(0);
    expect(report.traceDetail).toEqual([
      {
        id: 'reused',
        blocked: [{ callId: 'call_0', tool: 'restart_vm', reasonCode: 'UNVERIFIED_WRITE', targets: [] }],
      },
    ]);
  });

  it('should still refuse an id reused while its call waits for its result', async () => {
    const report = await audit(
      [
        {
          id: 'ambiguous',
          messages: [
            { role: 'assistant', tool_calls: [call('call_0', 'get_status'), call('call_0', 'restart_vm')] },
            { role: 'tool', tool_call_id: 'call_0', content: 'running' },
          ],
        },
      ],
      1,
    ); // its only trace is refused: nothing audited
    expect(report).toMatchObject({ traces: 0, malformed: 1 });
    expect(report.errors[0].message).toContain('used again before its call');
  });
});
