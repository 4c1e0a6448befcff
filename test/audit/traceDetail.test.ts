import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditReport } from 'assistant-safety/audit';
import { main } from '../../src/cli/main.js';

/*
 * `audit --targets bind --rules R --out r.json`: the JSON report lists, per audited trace, each
 * blocked call with the assistant's tool call id, the tool, the reason code and its targets, and a
 * blocked final answer with its reason and state (the Markdown and HTML reports name those traces). A
 * trace's id is the row's `id`, or `file:line` (the file's name) for a row without one.
 */

const RULES = {
  tools: {
    get_status: { kind: 'read', targets: ['vm'], prefix: 'vm:' },
    restart_vm: { kind: 'write', targets: ['vm'], prefix: 'vm:' },
  },
};
const call = (id: string, name: string, vm: number) => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify({ vm }) },
});
/** A read of vm 101, a restart of `write`, and (when `checked`) a read of vm 101 again before the answer. */
const messages = (write: number, checked = false) => [
  { role: 'user', content: 'restart vm 101' },
  { role: 'assistant', tool_calls: [call('call_read', 'get_status', 101)] },
  { role: 'tool', tool_call_id: 'call_read', content: 'running' },
  { role: 'assistant', tool_calls: [call('call_write', 'restart_vm', write)] },
  { role: 'tool', tool_call_id: 'call_write', content: 'ok' },
  ...(checked
    ? [
        { role: 'assistant', tool_calls: [call('call_check', 'get_status', 101)] },
        { role: 'tool', tool_call_id: 'call_check', content: 'running' },
      ]
    : []),
  { role: 'assistant', content: 'Done.' },
];

async function auditRows(rows: object[], out: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'audit-detail-'));
  writeFileSync(join(dir, 'rules.json'), JSON.stringify(RULES));
  const file = join(dir, 'export.jsonl');
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const code = await main(
    ['audit', file, '--targets', 'bind', '--rules', join(dir, 'rules.json'), '--out', join(dir, out)],
    { out: () => {}, err: () => {} },
  );
  expect(code).toBe(0);
  return readFileSync(join(dir, out), 'utf8');
}

describe('the JSON report’s traceDetail', () => {
  it('should list each audited trace and its blocked calls with call id, tool, reason and targets', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-detail-'));
    writeFileSync(join(dir, 'rules.json'), JSON.stringify(RULES));
    const rows = [
      { id: 'wrong-vm', messages: messages(102) },
      { id: 'right-vm', messages: messages(101) },
      { messages: messages(7) },
    ];
    const file = join(dir, 'export.jsonl');
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const out = join(dir, 'r.json');
    const code = await main(['audit', file, '--targets', 'bind', '--rules', join(dir, 'rules.json'), '--out', out], {
      out: () => {},
      err: () => {},
    });
    expect(code).toBe(0);
    const report = AuditReport.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(report.traceDetail).toEqual([
      {
        id: 'wrong-vm',
        blocked: [
          { callId: 'call_write', tool: 'restart_vm', reasonCode: 'TARGET_NOT_VALIDATED', targets: ['vm:102'] },
        ],
      },
      // Nothing blocked on the way, but the answer came before anything checked the restart.
      { id: 'right-vm', blocked: [], final: { reasonCode: 'FINAL_ANSWER_UNVERIFIED', state: 'VERIFYING' } },
      {
        id: `export.jsonl:3`,
        blocked: [{ callId: 'call_write', tool: 'restart_vm', reasonCode: 'TARGET_NOT_VALIDATED', targets: ['vm:7'] }],
      },
    ]);
    // The detail adds up to the counts.
    expect(report.traceDetail.flatMap((t) => t.blocked)).toHaveLength(report.calls.blocked);
  });

  it('should name each trace whose final answer was blocked, in the JSON, Markdown and HTML reports', async () => {
    const rows = [
      { id: 'answered-unchecked', messages: messages(101) },
      { id: 'answered-checked', messages: messages(101, true) },
    ];
    const report = AuditReport.parse(JSON.parse(await auditRows(rows, 'r.json')));
    // Before: finalAnswersBlocked was 1, and nothing said which trace.
    expect(report.finalAnswersBlocked).toBe(1);
    expect(report.traceDetail).toEqual([
      {
        id: 'answered-unchecked',
        blocked: [],
        final: { reasonCode: 'FINAL_ANSWER_UNVERIFIED', state: 'VERIFYING' },
      },
      { id: 'answered-checked', blocked: [] },
    ]);
    const md = await auditRows(rows, 'r.md');
    expect(md).toContain(
      '## Traces whose final answer was blocked\n\n| | |\n|---|---:|\n| answered-unchecked | FINAL_ANSWER_UNVERIFIED (in VERIFYING) |\n\n',
    );
    expect(md).not.toContain('| answered-checked |');
    const html = await auditRows(rows, 'r.html');
    expect(html).toContain(
      '<h2>Traces whose final answer was blocked</h2>\n<table><tr><td>answered-unchecked</td><td>FINAL_ANSWER_UNVERIFIED (in VERIFYING)</td></tr></table>',
    );
  });
});
