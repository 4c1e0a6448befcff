import { describe, expect, it } from 'vitest';
import { createAuditClassifier, createTraceReader, gateTrace, type AuditTrace } from 'assistant-safety/audit';
import { main } from '../../src/cli/main.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * A trace the gate allows end to end, and one it blocks at a known call, give exactly those results.
 */

const RULES = { tools: { list_vms: 'resolve', get_status: 'read', restart_vm: 'write' } };

const call = (id: string, name: string, args: unknown = {}) => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});
const result = (id: string) => ({ role: 'tool', tool_call_id: id, content: 'ok' });

/** Find the VM, read it, restart it, read it again (verification), answer. */
const ALLOWED = {
  id: 'allowed',
  messages: [
    { role: 'user', content: 'restart vm 101' },
    { role: 'assistant', content: null, tool_calls: [call('c1', 'list_vms')] },
    result('c1'),
    { role: 'assistant', content: null, tool_calls: [call('c2', 'get_status', { vm: 101 })] },
    result('c2'),
    { role: 'assistant', content: null, tool_calls: [call('c3', 'restart_vm', { vm: 101 })] },
    result('c3'),
    { role: 'assistant', content: null, tool_calls: [call('c4', 'get_status', { vm: 101 })] },
    result('c4'),
    { role: 'assistant', content: 'VM 101 restarted and running.' },
  ],
};

/** Reads, restarts, then restarts again without looking: the fourth call is blocked (UNVERIFIED_WRITE). */
const BLOCKED = {
  id: 'blocked',
  messages: [
    { role: 'user', content: 'restart vm 101' },
    { role: 'assistant', content: null, tool_calls: [call('c1', 'list_vms'), call('c2', 'get_status', { vm: 101 })] },
    result('c1'),
    result('c2'),
    { role: 'assistant', content: null, tool_calls: [call('c3', 'restart_vm', { vm: 101 })] },
    result('c3'),
    { role: 'assistant', content: null, tool_calls: [call('c4', 'restart_vm', { vm: 101 })] },
    result('c4'),
    { role: 'assistant', content: 'Restarted twice.' },
  ],
};

function traceOf(row: unknown): AuditTrace {
  let trace: AuditTrace | undefined;
  const reader = createTraceReader({
    file: 'known.jsonl',
    onRead: (e) => {
      if (e.type === 'trace') trace = e.trace;
      else throw new Error(JSON.stringify(e));
    },
  });
  reader.push(row, 1);
  reader.end();
  return trace!;
}

describe('known results', () => {
  it('should allow every call and the final answer of a trace that looks before and after it writes', () => {
    const audit = gateTrace(traceOf(ALLOWED), { classifier: createAuditClassifier({ rules: RULES }) });
    expect(audit.calls.map((c) => [c.tool, c.kind, c.blocked])).toEqual([
      ['list_vms', 'resolve', false],
      ['get_status', 'read', false],
      ['restart_vm', 'write', false],
      ['get_status', 'read', false],
    ]);
    expect(audit.final).toEqual({ blocked: false, state: 'READING' });
    expect(audit.resultsIgnored).toBe(0);
  });

  it('should block the second restart, in VERIFYING, ignore its result and block the final answer', () => {
    const audit = gateTrace(traceOf(BLOCKED), { classifier: createAuditClassifier({ rules: RULES }) });
    expect(audit.calls.map((c) => c.blocked)).toEqual([false, false, false, true]);
    expect(audit.calls[3]).toMatchObject({
      id: 'c4',
      tool: 'restart_vm',
      reason: 'UNVERIFIED_WRITE',
      state: 'VERIFYING',
    });
    expect(audit.resultsIgnored).toBe(1);
    expect(audit.final).toEqual({ blocked: true, reason: 'FINAL_ANSWER_UNVERIFIED', state: 'VERIFYING' });
  });

  it('should report both through the command: one trace with a block, at its fourth call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-known-'));
    writeFileSync(join(dir, 'rules.json'), JSON.stringify(RULES));
    writeFileSync(join(dir, 'export.jsonl'), `${JSON.stringify(ALLOWED)}\n${JSON.stringify(BLOCKED)}\n`);
    const out: string[] = [];
    const code = await main(['audit', join(dir, 'export.jsonl'), '--rules', join(dir, 'rules.json')], {
      out: (t) => out.push(t),
      err: () => {},
    });
    expect(code).toBe(0);
    const report = JSON.parse(out.join('\n'));
    expect(report).toMatchObject({
      traces: 2,
      skipped: 0,
      tracesWithBlock: 1,
      finalAnswersChecked: 2,
      finalAnswersBlocked: 1,
      calls: { total: 8, allowed: 7, blocked: 1, resultsIgnored: 1 },
      blocked: { UNVERIFIED_WRITE: 1, FINAL_ANSWER_UNVERIFIED: 1 },
      blockedByTool: { restart_vm: 1 },
      blockedByState: { VERIFYING: 2 },
      firstBlock: { atCall: { '4-5': 1 }, atPart: { 'last quarter': 1 } },
      escalations: { calls: 1, traces: 1, reasons: { UNVERIFIED_WRITE: 1 } },
      sequences: [{ tools: ['restart_vm'], traces: 1, example: 'blocked' }],
      undeclared: [],
    });
  });
});
