import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecording, replayRecording } from 'assistant-safety';
import { main } from '../../src/cli/main.js';

/*
 * `--targets bind`: the rules' target paths name what each call touches, and a write to a target
 * no read validated is blocked TARGET_NOT_VALIDATED; without the option the same trace passes.
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
/** Reads vm 101, restarts vm 102 (never looked at), reads vm 102, answers. */
const ROW = {
  id: 'wrong-vm',
  messages: [
    { role: 'user', content: 'restart vm 101' },
    { role: 'assistant', tool_calls: [call('c1', 'get_status', 101)] },
    { role: 'tool', tool_call_id: 'c1', content: 'running' },
    { role: 'assistant', tool_calls: [call('c2', 'restart_vm', 102)] },
    { role: 'tool', tool_call_id: 'c2', content: 'ok' },
    { role: 'assistant', tool_calls: [call('c3', 'get_status', 102)] },
    { role: 'tool', tool_call_id: 'c3', content: 'running' },
    { role: 'assistant', content: 'Restarted.' },
  ],
};

async function audit(...extra: string[]) {
  return auditRow(ROW, ...extra);
}

async function auditRow(row: object, ...extra: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'audit-bind-'));
  writeFileSync(join(dir, 'rules.json'), JSON.stringify(RULES));
  writeFileSync(join(dir, 'export.jsonl'), JSON.stringify(row) + '\n');
  const out: string[] = [];
  const args = [
    'audit',
    join(dir, 'export.jsonl'),
    '--rules',
    join(dir, 'rules.json'),
    '--recordings',
    join(dir, 'rec'),
    ...extra,
  ];
  expect(await main(args, { out: (t) => out.push(t), err: () => {} })).toBe(0);
  return { report: JSON.parse(out.join('\n')), rec: join(dir, 'rec') };
}

describe('audit --targets bind', () => {
  it('should block the write to the target no read validated', async () => {
    const { report, rec } = await audit('--targets', 'bind');
    expect(report.blocked).toEqual({ TARGET_NOT_VALIDATED: 1 });
    expect(report.blockedByTool).toEqual({ restart_vm: 1 });
    expect(report.calls).toMatchObject({ total: 3, blocked: 1, resultsIgnored: 1 });
    expect(report.escalations.calls).toBe(1);
    const entries = parseRecording(readFileSync(join(rec, readdirSync(rec)[0]!), 'utf8'));
    expect(replayRecording(entries).divergences).toEqual([]);
  });

  it('should let the same trace through when targets are ignored', async () => {
    const { report } = await audit();
    expect(report.blocked).toEqual({});
    expect(report.tracesWithBlock).toBe(0);
  });

  it('should take the user message as the user’s words, and none with --no-user-words (a sub-agent’s run)', async () => {
    const row = {
      id: 'sub-agent',
      messages: [
        { role: 'user', content: 'Restart vm 102.' },
        { role: 'assistant', tool_calls: [call('c1', 'restart_vm', 102)] },
        { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      ],
    };
    expect((await auditRow(row, '--targets', 'bind')).report.blocked).toEqual({});
    expect((await auditRow(row, '--targets', 'bind', '--no-user-words')).report.blocked).toEqual({
      NO_VALIDATED_TARGET: 1,
    });
  });
});
