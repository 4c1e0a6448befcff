import { afterEach, describe, expect, it } from 'vitest';
import { BasicTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createSafetySession, restoreSafetySession } from 'assistant-safety';
import { createOtelRecorder } from 'assistant-safety/otel';
import { createSdk, point, type Sdk } from './otelHarness.js';

/*
 * A tracing pipeline that throws (a span processor of the application's) must
 * neither change the session's decisions nor cost the entry its metric points:
 * the recorder records both halves and hands the error to the session. A call
 * id begun again ends the earlier call's span rather than losing it.
 */

let sdk: Sdk;
afterEach(async () => sdk?.shutdown());

const throwingProcessor: SpanProcessor = {
  onStart() {
    throw new Error('span processor failed');
  },
  onEnd() {},
  forceFlush: async () => {},
  shutdown: async () => {},
};

describe('createOtelRecorder when tracing throws', () => {
  it('should still count the decision and report the error to the session', async () => {
    sdk = createSdk();
    const tracer = new BasicTracerProvider({ spanProcessors: [throwingProcessor] }).getTracer('test');
    const errors: string[] = [];
    const session = createSafetySession({
      id: 's1',
      recorder: createOtelRecorder({ tracer, meter: sdk.meterProvider.getMeter('test') }),
      onRecorderError: (error) => errors.push(String(error)),
    });

    const blocked = session.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' });

    expect(blocked?.reasonCode).toBe('NO_VALIDATED_TARGET');
    expect(errors).toEqual(['Error: span processor failed']);
    const decisions = (await sdk.points()).filter((p) => p.name === 'assistant_safety.decisions');
    expect(decisions).toEqual([
      point('assistant_safety.decisions', {
        'assistant_safety.decision': 'blocked',
        'assistant_safety.reason_code': 'NO_VALIDATED_TARGET',
        'assistant_safety.state': 'RESOLVING',
        'assistant_safety.tool.kind': 'write',
        'assistant_safety.tool.name': 'restart_vm',
      }),
    ]);
  });
});

describe('createOtelRecorder when a call id is begun again', () => {
  it('should end the earlier span as abandoned when a session restored from an older snapshot begins the same id', async () => {
    sdk = createSdk();
    const recorder = createOtelRecorder({ tracer: sdk.tracerProvider.getTracer('test'), metrics: false });
    const session = createSafetySession({ id: 's1', recorder });
    const saved = JSON.stringify(session.persist());
    session.beginToolCall({ id: 'a', kind: 'read', tool: 'status' });

    const restored = restoreSafetySession(JSON.parse(saved), { recorder });
    restored.beginToolCall({ id: 'a', kind: 'read', tool: 'status' });
    restored.endToolCall({ id: 'a', ok: true });
    recorder.endOpenSpans();

    const outcomes = sdk.finishedSpans().map((s) => s.attributes['assistant_safety.outcome']);
    expect(outcomes).toEqual(['abandoned', 'ok']);
  });
});
