import { createSafetySession, finishToolCall, type ToolKind } from 'assistant-safety';

/*
 * Traces as a format-free model (batches of calls, each answered ok, failed or not at all, then
 * maybe a final answer), written out in every format the audit reads from each format's own
 * documented shape, and the report counted here straight from the model with a bare session.
 */

export interface ModelCall {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  /** 'ok', 'failed', or 'none': the trace was cut before the result (only in the last batch). */
  result: 'ok' | 'failed' | 'none';
}

export interface ModelTrace {
  id: string;
  batches: ModelCall[][];
  final: boolean;
}

/** The rules the tests audit with: `delete_vm` is left out, so it is undeclared. */
export const RULES = { tools: { list_vms: 'resolve', get_status: 'read', restart_vm: 'write' } } as const;
const TOOLS = ['list_vms', 'get_status', 'restart_vm', 'delete_vm'];
export const kindOf = (tool: string): ToolKind => (RULES.tools as Record<string, ToolKind>)[tool] ?? 'write';

/** A small deterministic PRNG (mulberry32). */
function random(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` traces: 1 to 4 batches of 1 to 3 calls (parallel calls in one assistant message), a
 * fifth of results failed, some traces cut on their last batch (ending on a tool call), most
 * ending on a final answer. The first three are fixed: parallel calls, a failed result, a cut trace.
 */
export function generateTraces(count: number, seed = 1): ModelTrace[] {
  const r = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const out: ModelTrace[] = [
    {
      id: 'parallel',
      batches: [
        [
          { id: 'p1', tool: 'list_vms', args: {}, result: 'ok' },
          { id: 'p2', tool: 'get_status', args: { vm: 1 }, result: 'ok' },
        ],
        [
          { id: 'p3', tool: 'restart_vm', args: { vm: 1 }, result: 'ok' },
          { id: 'p4', tool: 'delete_vm', args: { vm: 2 }, result: 'ok' },
        ],
      ],
      final: true,
    },
    {
      id: 'failed',
      batches: [
        [{ id: 'f1', tool: 'list_vms', args: {}, result: 'failed' }],
        [{ id: 'f2', tool: 'restart_vm', args: {}, result: 'ok' }],
      ],
      final: true,
    },
    {
      id: 'cut',
      batches: [
        [{ id: 'k1', tool: 'list_vms', args: {}, result: 'ok' }],
        [{ id: 'k2', tool: 'restart_vm', args: {}, result: 'none' }],
      ],
      final: false,
    },
  ];
  for (let t = out.length; t < count; t++) {
    const batches: ModelCall[][] = [];
    const n = 1 + Math.floor(r() * 4);
    let c = 0;
    for (let b = 0; b < n; b++) {
      const size = 1 + Math.floor(r() * 3);
      batches.push(
        Array.from({ length: size }, () => ({
          id: `call_${t}_${c++}`,
          tool: pick(TOOLS),
          args: { vm: Math.floor(r() * 5) },
          result: r() < 0.2 ? ('failed' as const) : ('ok' as const),
        })),
      );
    }
    const cut = r() < 0.15;
    if (cut) for (const call of batches[batches.length - 1]!) call.result = 'none';
    out.push({ id: `trace-${t}`, batches, final: !cut && r() < 0.85 });
  }
  return out;
}

/** Every result given (ok when the model had none): the model of a format that always has them (spans end). */
export const answered = (traces: ModelTrace[]): ModelTrace[] =>
  traces.map((t) => ({
    ...t,
    batches: t.batches.map((b) => b.map((c) => (c.result === 'none' ? { ...c, result: 'ok' as const } : c))),
  }));

// ---- the formats ----

export function openaiRow(t: ModelTrace, argsAsString: boolean) {
  const messages: unknown[] = [{ role: 'user', content: `task ${t.id}` }];
  for (const batch of t.batches) {
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: batch.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.tool, arguments: argsAsString ? JSON.stringify(c.args) : c.args },
      })),
    });
    for (const c of batch)
      if (c.result !== 'none')
        messages.push({
          role: 'tool',
          tool_call_id: c.id,
          content: 'result',
          error: c.result === 'failed' ? 'boom' : null,
        });
  }
  if (t.final) messages.push({ role: 'assistant', content: 'All done.' });
  return { id: t.id, messages };
}

export function aiSdkModelRow(t: ModelTrace) {
  const messages: unknown[] = [{ role: 'user', content: [{ type: 'text', text: `task ${t.id}` }] }];
  for (const batch of t.batches) {
    messages.push({
      role: 'assistant',
      content: batch.map((c) => ({ type: 'tool-call', toolCallId: c.id, toolName: c.tool, input: c.args })),
    });
    const results = batch.filter((c) => c.result !== 'none');
    if (results.length > 0)
      messages.push({
        role: 'tool',
        content: results.map((c) => ({
          type: 'tool-result',
          toolCallId: c.id,
          toolName: c.tool,
          output: c.result === 'ok' ? { type: 'json', value: { ok: true } } : { type: 'error-text', value: 'boom' },
        })),
      });
  }
  if (t.final) messages.push({ role: 'assistant', content: [{ type: 'text', text: 'All done.' }] });
  return { id: t.id, messages };
}

export function aiSdkUIRow(t: ModelTrace) {
  const parts: unknown[] = [];
  for (const batch of t.batches) {
    parts.push({ type: 'step-start' });
    for (const c of batch)
      parts.push({
        type: `tool-${c.tool}`,
        toolCallId: c.id,
        input: c.args,
        ...(c.result === 'ok'
          ? { state: 'output-available', output: { ok: true } }
          : c.result === 'failed'
            ? { state: 'output-error', errorText: 'boom' }
            : { state: 'input-available' }),
      });
  }
  if (t.final) parts.push({ type: 'step-start' }, { type: 'text', text: 'All done.' });
  return {
    id: t.id,
    messages: [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: `task ${t.id}` }] },
      { id: 'a1', role: 'assistant', parts },
    ],
  };
}

/** A Claude Code transcript: one line per tool_use (as Claude Code writes a response's blocks), results in a user line. */
export function claudeCodeLines(t: ModelTrace): unknown[] {
  let n = 0;
  const base = {
    sessionId: t.id,
    cwd: '/srv',
    version: '2.1.12',
    gitBranch: '',
    userType: 'external',
    isSidechain: false,
  };
  const line = (type: string, message: unknown) => ({
    ...base,
    type,
    uuid: `${t.id}-${n}`,
    parentUuid: n === 0 ? null : `${t.id}-${n - 1}`,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n++)).toISOString(),
    message,
  });
  const out: unknown[] = [
    { type: 'summary', summary: 'a session', leafUuid: 'x' },
    line('user', { role: 'user', content: `task ${t.id}` }),
  ];
  for (const [b, batch] of t.batches.entries()) {
    for (const c of batch)
      out.push(
        line('assistant', {
          id: `msg_${b}`,
          role: 'assistant',
          model: 'claude',
          content: [{ type: 'tool_use', id: c.id, name: c.tool, input: c.args }],
          stop_reason: 'tool_use',
        }),
      );
    const results = batch.filter((c) => c.result !== 'none');
    if (results.length > 0)
      out.push(
        line('user', {
          role: 'user',
          content: results.map((c) => ({
            type: 'tool_result',
            tool_use_id: c.id,
            content: 'result',
            ...(c.result === 'failed' && { is_error: true }),
          })),
        }),
      );
  }
  if (t.final) out.push(line('assistant', { role: 'assistant', content: [{ type: 'text', text: 'All done.' }] }));
  return out;
}

const str = (key: string, value: string) => ({ key, value: { stringValue: value } });

/** OTLP JSON: one export per trace; a batch's tool spans overlap (same start), inference spans between. */
export function otelExport(t: ModelTrace) {
  const spans: unknown[] = [];
  const traceId = t.id;
  let time = 1_700_000_000_000;
  let s = 0;
  const span = (start: number, end: number, attributes: unknown[], status?: number) => ({
    traceId,
    spanId: `${t.id}-s${s++}`,
    name: 'span',
    kind: 1,
    startTimeUnixNano: String(start * 1e6),
    endTimeUnixNano: String(end * 1e6),
    attributes,
    ...(status !== undefined && { status: { code: status } }),
  });
  for (const batch of t.batches) {
    spans.push(
      span(time, time + 5, [
        str('gen_ai.operation.name', 'chat'),
        { key: 'gen_ai.response.finish_reasons', value: { arrayValue: { values: [{ stringValue: 'tool_calls' }] } } },
      ]),
    );
    time += 10;
    batch.forEach((c, i) =>
      spans.push(
        span(
          time,
          time + 1 + i,
          [
            str('gen_ai.operation.name', 'execute_tool'),
            str('gen_ai.tool.name', c.tool),
            str('gen_ai.tool.call.id', c.id),
            str('gen_ai.tool.call.arguments', JSON.stringify(c.args)),
          ],
          c.result === 'failed' ? 2 : undefined,
        ),
      ),
    );
    time += 10;
  }
  if (t.final)
    spans.push(
      span(time, time + 5, [
        str('gen_ai.operation.name', 'chat'),
        { key: 'gen_ai.response.finish_reasons', value: { arrayValue: { values: [{ stringValue: 'stop' }] } } },
      ]),
    );
  return { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'agent' }, spans }] }] };
}

// ---- the count done here ----

const inc = (r: Record<string, number>, k: string) => {
  r[k] = (r[k] ?? 0) + 1;
};

/** The report's counts from the model, with a bare session and no audit code. */
export function countByHand(
  traces: ModelTrace[],
  escalate = ['NO_VALIDATED_TARGET', 'TARGET_NOT_VALIDATED', 'UNVERIFIED_WRITE'],
) {
  const c = {
    traces: traces.length,
    tracesWithBlock: 0,
    finalAnswersChecked: 0,
    finalAnswersBlocked: 0,
    tracesEndingOnToolCall: 0,
    calls: { total: 0, allowed: 0, blocked: 0, resultsIgnored: 0 },
    blocked: {} as Record<string, number>,
    blockedByTool: {} as Record<string, number>,
    blockedByState: {} as Record<string, number>,
    atCall: {} as Record<string, number>,
    escalations: { calls: 0, traces: 0, reasons: {} as Record<string, number> },
    sequences: new Map<string, number>(),
    tools: new Map<string, { calls: number; blocked: number }>(),
  };
  for (const t of traces) {
    const session = createSafetySession({ now: () => 0, onWarning: () => {} });
    const blocked: string[] = [];
    let index = 0;
    let first = 0;
    let escalated = false;
    for (const batch of t.batches) {
      const ran = new Set<string>();
      for (const call of batch) {
        index++;
        c.calls.total++;
        const tool = c.tools.get(call.tool) ?? { calls: 0, blocked: 0 };
        c.tools.set(call.tool, tool);
        tool.calls++;
        const state = session.state;
        const block = session.beginToolCall({ id: call.id, kind: kindOf(call.tool), tool: call.tool });
        if (!block) {
          c.calls.allowed++;
          ran.add(call.id);
          continue;
        }
        c.calls.blocked++;
        tool.blocked++;
        inc(c.blocked, block.reasonCode);
        inc(c.blockedByTool, call.tool);
        inc(c.blockedByState, state);
        if (escalate.includes(block.reasonCode)) {
          c.escalations.calls++;
          inc(c.escalations.reasons, block.reasonCode);
          escalated = true;
        }
        if (first === 0) first = index;
        blocked.push(call.tool);
      }
      for (const call of batch) {
        if (call.result === 'none') continue;
        if (ran.has(call.id)) finishToolCall(session, { id: call.id, ok: call.result === 'ok' });
        else c.calls.resultsIgnored++;
      }
    }
    if (escalated) c.escalations.traces++;
    if (first > 0) {
      c.tracesWithBlock++;
      inc(
        c.atCall,
        first <= 3 ? String(first) : first <= 5 ? '4-5' : first <= 10 ? '6-10' : first <= 20 ? '11-20' : '21+',
      );
      const key = JSON.stringify(blocked.length > 10 ? [...blocked.slice(0, 10), '…'] : blocked);
      c.sequences.set(key, (c.sequences.get(key) ?? 0) + 1);
    }
    if (t.final) {
      c.finalAnswersChecked++;
      const state = session.state;
      const block = session.canFinalAnswer();
      if (block) {
        c.finalAnswersBlocked++;
        inc(c.blocked, block.reasonCode);
        inc(c.blockedByState, state);
        if (first === 0) inc(c.atCall, 'final answer');
      }
    } else if (index > 0) c.tracesEndingOnToolCall++;
  }
  return c;
}
