import { context, trace } from '@opentelemetry/api';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { combineRecorders, createMemoryRecorder, createSafetySession, createToolLoop } from 'assistant-safety';
import { createOtelRecorder, FINAL_ANSWER_BLOCKED_EVENT, TOOL_CALL_SPAN } from 'assistant-safety/otel';
import { createSdk, enableContext, point, sortPoints, type Sdk } from './otelHarness.js';

/*
 * The OpenTelemetry recorder against the real SDK (in-memory reader and span
 * exporter): a scripted session and a tool-loop turn produce exactly the
 * expected metric points and spans, each span under the caller's active span.
 */

const D = 'assistant_safety.decision';
const R = 'assistant_safety.reason_code';
const S = 'assistant_safety.state';
const K = 'assistant_safety.tool.kind';
const T = 'assistant_safety.tool.name';

let sdk: Sdk;
beforeAll(() => enableContext());
afterEach(async () => sdk?.shutdown());

function recorderFor(sdkNow: Sdk, toolNames?: string[]) {
  return createOtelRecorder({
    meter: sdkNow.meterProvider.getMeter('test'),
    tracer: sdkNow.tracerProvider.getTracer('test'),
    ...(toolNames && { toolNames }),
  });
}

describe('createOtelRecorder with the SDK', () => {
  it('should turn a scripted session into exactly the expected metric points and one span per tool call', async () => {
    sdk = createSdk();
    let t = 1000;
    const session = createSafetySession({
      id: 's1',
      now: () => t,
      recorder: recorderFor(sdk, ['find_vm', 'restart_vm', 'status']),
    });
    const parent = sdk.tracerProvider.getTracer('test').startSpan('agent turn');
    context.with(trace.setSpan(context.active(), parent), () => {
      expect(session.beginToolCall({ id: 'w0', kind: 'write', tool: 'restart_vm' })?.reasonCode).toBe(
        'NO_VALIDATED_TARGET',
      );
      session.beginToolCall({ id: 'r1', kind: 'resolve', tool: 'find_vm' });
      session.endToolCall({ id: 'r1', ok: true });
      session.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' });
      t = 2000;
      session.endToolCall({ id: 'w1', ok: true });
      expect(session.canFinalAnswer()?.reasonCode).toBe('FINAL_ANSWER_UNVERIFIED');
      expect(session.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop_vm' })?.reasonCode).toBe('UNVERIFIED_WRITE');
      session.beginToolCall({ id: 'r2', kind: 'read', tool: 'status' });
      t = 5000;
      session.endToolCall({ id: 'r2', ok: true });
      session.completeVerification();
    });
    parent.end();

    expect(await sdk.points()).toEqual(
      sortPoints([
        point('assistant_safety.decisions', {
          [D]: 'blocked',
          [R]: 'NO_VALIDATED_TARGET',
          [S]: 'RESOLVING',
          [K]: 'write',
          [T]: 'restart_vm',
        }),
        point('assistant_safety.decisions', { [D]: 'allowed', [S]: 'RESOLVING', [K]: 'resolve', [T]: 'find_vm' }),
        point('assistant_safety.decisions', { [D]: 'allowed', [S]: 'READING', [K]: 'write', [T]: 'restart_vm' }),
        point('assistant_safety.decisions', {
          [D]: 'blocked',
          [R]: 'UNVERIFIED_WRITE',
          [S]: 'VERIFYING',
          [K]: 'write',
          [T]: 'other',
        }),
        point('assistant_safety.decisions', { [D]: 'allowed', [S]: 'VERIFYING', [K]: 'read', [T]: 'status' }),
        point('assistant_safety.final_answer.blocks', { [S]: 'VERIFYING', [R]: 'FINAL_ANSWER_UNVERIFIED' }),
        point('assistant_safety.recovery.attempts', { [R]: 'NO_VALIDATED_TARGET', [T]: 'restart_vm' }),
        point('assistant_safety.recovery.attempts', { [R]: 'UNVERIFIED_WRITE', [T]: 'other' }),
        point('assistant_safety.recovery.successes', { [R]: 'NO_VALIDATED_TARGET', [T]: 'restart_vm' }),
        point('assistant_safety.writes', { [T]: 'restart_vm' }),
        point('assistant_safety.writes.unverified', {}, 0),
        point('assistant_safety.verification.duration', { [T]: 'restart_vm' }, { count: 1, sum: 3 }),
      ]),
    );

    const spans = sdk.finishedSpans().filter((s) => s.name === TOOL_CALL_SPAN);
    expect(
      spans.map((s) => ({
        id: s.attributes['gen_ai.tool.call.id'],
        tool: s.attributes['gen_ai.tool.name'],
        decision: s.attributes[D],
        reason: s.attributes[R],
        before: s.attributes['assistant_safety.state.before'],
        after: s.attributes['assistant_safety.state.after'],
        outcome: s.attributes['assistant_safety.outcome'],
        session: s.attributes['assistant_safety.session.id'],
      })),
    ).toEqual([
      {
        id: 'w0',
        tool: 'restart_vm',
        decision: 'blocked',
        reason: 'NO_VALIDATED_TARGET',
        before: 'RESOLVING',
        after: 'RESOLVING',
        outcome: 'blocked',
        session: 's1',
      },
      {
        id: 'r1',
        tool: 'find_vm',
        decision: 'allowed',
        reason: undefined,
        before: 'RESOLVING',
        after: 'READING',
        outcome: 'ok',
        session: 's1',
      },
      {
        id: 'w1',
        tool: 'restart_vm',
        decision: 'allowed',
        reason: undefined,
        before: 'READING',
        after: 'VERIFYING',
        outcome: 'ok',
        session: 's1',
      },
      {
        id: 'w2',
        tool: 'stop_vm',
        decision: 'blocked',
        reason: 'UNVERIFIED_WRITE',
        before: 'VERIFYING',
        after: 'VERIFYING',
        outcome: 'blocked',
        session: 's1',
      },
      {
        id: 'r2',
        tool: 'status',
        decision: 'allowed',
        reason: undefined,
        before: 'VERIFYING',
        after: 'VERIFYING',
        outcome: 'ok',
        session: 's1',
      },
    ]);
    for (const span of spans) {
      expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
      expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    }
    const events = sdk.finishedSpans().find((s) => s.name === 'agent turn')!.events;
    expect(events.map((e) => [e.name, e.attributes?.[S]])).toEqual([[FINAL_ANSWER_BLOCKED_EVENT, 'VERIFYING']]);
  });

  it("should put the spans of a tool-loop turn under the caller's active span, with a failed call as an error", async () => {
    sdk = createSdk();
    let t = 0;
    const session = createSafetySession({ id: 'loop', now: () => (t += 100), recorder: recorderFor(sdk) });
    const kinds: Record<string, 'resolve' | 'write' | 'user_input' | 'read'> = {
      ask_user: 'user_input',
      find_vm: 'resolve',
      restart_vm: 'write',
      logs: 'read',
    };
    const loop = createToolLoop({
      session,
      classify: (name) => kinds[name] ?? 'write',
      execute: async (call) => {
        if (call.name === 'logs') throw new Error('logs unavailable');
        return { ok: true };
      },
    });
    const tracer = sdk.tracerProvider.getTracer('test');
    const turnSpan = await tracer.startActiveSpan('agent turn', async (span) => {
      loop.startTurn();
      await loop.runBatch([{ id: 'q1', name: 'ask_user', args: { question: 'which vm?' } }]);
      await loop.runBatch([
        { id: 'c1', name: 'find_vm', args: { name: 'web-01' } },
        { id: 'c2', name: 'restart_vm', args: { name: 'web-01' } },
        { id: 'c3', name: 'logs', args: { name: 'web-01' } },
      ]);
      span.end();
      return span;
    });

    const spans = sdk.finishedSpans().filter((s) => s.name === TOOL_CALL_SPAN);
    expect(
      spans.map((s) => [s.attributes['gen_ai.tool.call.id'], s.attributes[D], s.attributes[R], s.status.code]),
    ).toEqual([
      ['q1', 'blocked', 'LOOK_BEFORE_ASKING', 0],
      ['c2', 'blocked', 'NO_VALIDATED_TARGET', 0],
      ['c1', 'allowed', undefined, 0],
      ['c3', 'allowed', undefined, 2],
    ]);
    for (const span of spans) expect(span.parentSpanContext?.spanId).toBe(turnSpan.spanContext().spanId);

    expect(await sdk.points()).toEqual(
      sortPoints([
        point('assistant_safety.loop.blocks', {
          [R]: 'LOOK_BEFORE_ASKING',
          [S]: 'RESOLVING',
          [K]: 'user_input',
          [T]: 'ask_user',
        }),
        point('assistant_safety.decisions', { [D]: 'allowed', [S]: 'RESOLVING', [K]: 'resolve', [T]: 'find_vm' }),
        point('assistant_safety.decisions', {
          [D]: 'blocked',
          [R]: 'NO_VALIDATED_TARGET',
          [S]: 'RESOLVING',
          [K]: 'write',
          [T]: 'restart_vm',
        }),
        point('assistant_safety.decisions', { [D]: 'allowed', [S]: 'RESOLVING', [K]: 'read', [T]: 'logs' }),
        point('assistant_safety.recovery.attempts', { [R]: 'LOOK_BEFORE_ASKING', [T]: 'ask_user' }),
        point('assistant_safety.recovery.attempts', { [R]: 'NO_VALIDATED_TARGET', [T]: 'restart_vm' }),
      ]),
    );
  });

  it('should keep observing beside another recorder that throws (combineRecorders)', async () => {
    sdk = createSdk();
    const memory = createMemoryRecorder();
    const failures: unknown[] = [];
    const session = createSafetySession({
      id: 'both',
      recorder: combineRecorders(
        {
          record() {
            throw new Error('disk full');
          },
        },
        recorderFor(sdk),
        memory,
      ),
      onRecorderError: (e) => failures.push(e),
    });
    session.beginToolCall({ id: 'a', kind: 'write', tool: 'restart_vm' });
    expect(memory.entries.map((e) => e.call.type)).toEqual(['create', 'beginToolCall']);
    expect(failures).toHaveLength(2);
    expect((failures[0] as Error).message).toBe('disk full');
    expect(sdk.finishedSpans()).toHaveLength(1);
    expect((await sdk.points()).map((p) => p.name)).toContain('assistant_safety.decisions');
  });
});
