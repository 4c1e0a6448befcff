import { metrics, trace } from '@opentelemetry/api';
import { afterAll, describe, expect, it } from 'vitest';
import { createSafetySession, type SafetySession } from 'assistant-safety';
import { createOtelRecorder } from 'assistant-safety/otel';
import { createSdk } from './otelHarness.js';

/*
 * With no SDK registered the API is a no-op: the recorder's default meter and
 * tracer (the global API's) export nothing. Once the application registers
 * providers, a recorder created after that reports to them.
 */

function drive(session: SafetySession) {
  session.beginToolCall({ id: 'w0', kind: 'write', tool: 'restart_vm' });
  session.beginToolCall({ id: 'r1', kind: 'resolve', tool: 'find_vm' });
  session.endToolCall({ id: 'r1', ok: true });
  session.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' });
  session.endToolCall({ id: 'w1', ok: true });
  session.canFinalAnswer();
}

const sdk = createSdk();
afterAll(async () => {
  metrics.disable();
  trace.disable();
  await sdk.shutdown();
});

describe('createOtelRecorder without an SDK', () => {
  it('should export nothing while no SDK is registered', async () => {
    drive(createSafetySession({ recorder: createOtelRecorder() }));
    expect(await sdk.points()).toEqual([]);
    expect(sdk.finishedSpans()).toEqual([]);
  });

  it('should report to the providers the application registers', async () => {
    metrics.setGlobalMeterProvider(sdk.meterProvider);
    trace.setGlobalTracerProvider(sdk.tracerProvider);
    drive(createSafetySession({ recorder: createOtelRecorder() }));
    const names = new Set((await sdk.points()).map((p) => p.name));
    expect([...names].sort()).toEqual([
      'assistant_safety.decisions',
      'assistant_safety.final_answer.blocks',
      'assistant_safety.recovery.attempts',
      'assistant_safety.recovery.successes',
      'assistant_safety.writes',
      'assistant_safety.writes.unverified',
    ]);
    expect(sdk.finishedSpans()).toHaveLength(3);
    expect(sdk.finishedSpans().every((s) => s.instrumentationScope.name === 'assistant-safety')).toBe(true);
  });
});
