import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditReport } from 'assistant-safety/audit';
import { runCli } from '../cli/runCli.js';

/*
 * A tool call whose arguments are not JSON (`"{not json"` in an OpenAI export) is judged as the
 * classifier judges arguments it cannot read, as missing ones: a write whose rule names target
 * arguments carries `?missing:<tool>@<digest>`, which nothing validates (fail closed). The trace is audited,
 * and the call is told: a problem line with the file, line, field and call id, and a count.
 */

const RULES = {
  tools: {
    get_status: { kind: 'read', targets: ['vm'], prefix: 'vm:' },
    restart_vm: { kind: 'write', targets: ['vm'], prefix: 'vm:' },
  },
};
const call = (id: string, name: string, args: string) => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});
/** A read of vm 101, then a restart with these arguments. */
const row = (id: string, restartArgs: string) => ({
  id,
  messages: [
    { role: 'user', content: 'restart vm 101' },
    { role: 'assistant', content: null, tool_calls: [call('c1', 'get_status', '{"vm":101}')] },
    { role: 'tool', tool_call_id: 'c1', content: 'running' },
    { role: 'assistant', content: null, tool_calls: [call('c2', 'restart_vm', restartArgs)] },
    { role: 'tool', tool_call_id: 'c2', content: 'ok' },
  ],
});

function setUp(rows: object[]) {
  const dir = mkdtempSync(join(tmpdir(), 'audit-args-'));
  writeFileSync(join(dir, 'rules.json'), JSON.stringify(RULES));
  const file = join(dir, 'export.jsonl');
  writeFileSync(file, rows.map((r) => JSON.stringify(r) + '\n').join(''));
  return { dir, file, rules: join(dir, 'rules.json') };
}

describe('tool-call arguments that are not JSON', () => {
  it('should judge the call as one without its arguments (fail closed), audit the trace, and tell the call', async () => {
    const { file, rules } = setUp([row('readable', '{"vm":101}'), row('garbled', '{"vm":101'), row('blank', '')]);
    const r = await runCli(['audit', file, '--rules', rules, '--targets', 'bind']);
    expect(r.code).toBe(0);
    // Before: not a word, and nothing in the report to count it.
    expect(r.err).toBe(
      `audit: ${file}:2 messages[3].tool_calls[0].function.arguments: tool call "c2" (restart_vm): its arguments are not JSON, got "{\\"vm\\":101": judged as a call without its arguments`,
    );
    const report = AuditReport.parse(JSON.parse(r.out));
    expect(report).toMatchObject({ traces: 3, skipped: 0, malformed: 0, unreadableArguments: 1, errorCount: 1 });
    expect(report.errors).toEqual([
      {
        file,
        line: 2,
        trace: 'garbled',
        path: 'messages[3].tool_calls[0].function.arguments',
        message: expect.stringContaining('tool call "c2" (restart_vm)'),
      },
    ]);
    // The readable restart of the vm read first is allowed; the unreadable one names no target the
    // read validated, so binding blocks it, as it blocks a restart that leaves its target out.
    // A blank string is no arguments at all: judged the same, and no problem.
    const missing = { callId: 'c2', tool: 'restart_vm', reasonCode: 'TARGET_NOT_VALIDATED' };
    expect(report.traceDetail).toEqual([
      { id: 'readable', blocked: [] },
      {
        id: 'garbled',
        blocked: [{ ...missing, targets: [expect.stringMatching(/^\?missing:restart_vm@[0-9a-f]{16}$/)] }],
      },
      {
        id: 'blank',
        blocked: [{ ...missing, targets: [expect.stringMatching(/^\?missing:restart_vm@[0-9a-f]{16}$/)] }],
      },
    ]);
  });

  it('should count the calls in the Markdown overview and the summary line', async () => {
    const { dir, file, rules } = setUp([row('garbled', 'vm=101')]);
    const out = join(dir, 'r.md');
    const r = await runCli(['audit', file, '--rules', rules, '--targets', 'bind', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.err.split('\n').at(-1)).toBe(
      `audit: 1 traces, 1 with a blocked call, 0 final answers blocked, 1 calls with arguments that are not JSON; wrote ${out}`,
    );
    const md = readFileSync(out, 'utf8');
    expect(md).toContain('| tool calls whose arguments are not JSON (judged without them; see the problems) | 1 |');
    expect(md).toContain('## Problems in the input (1)');
    expect(md).toContain('tool call "c2" (restart_vm): its arguments are not JSON, got "vm=101"');
  });

  it('should tell an OpenTelemetry tool span whose arguments are not JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-args-otel-'));
    const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
    const span = {
      traceId: 't1',
      spanId: 's1',
      startTimeUnixNano: '1700000000000000000',
      endTimeUnixNano: '1700000000001000000',
      attributes: [
        attr('gen_ai.operation.name', 'execute_tool'),
        attr('gen_ai.tool.name', 'restart_vm'),
        attr('gen_ai.tool.call.id', 'call_7'),
        attr('gen_ai.tool.call.arguments', '{vm: 101}'),
      ],
    };
    const file = join(dir, 'spans.jsonl');
    writeFileSync(file, JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] }) + '\n');
    const r = await runCli(['audit', file]);
    expect(r.code).toBe(0);
    const report = AuditReport.parse(JSON.parse(r.out));
    expect(report).toMatchObject({ traces: 1, malformed: 0, unreadableArguments: 1 });
    expect(report.errors).toEqual([
      {
        file,
        line: 1,
        trace: 't1',
        path: 'resourceSpans[0].scopeSpans[0].spans[0].attributes',
        message:
          'tool call "call_7" (restart_vm): its arguments are not JSON, got "{vm: 101}": judged as a call without its arguments',
      },
    ]);
  });
});
