import { describe, expect, it } from 'vitest';
import { otelFigures } from '../../bench/otelSuite.js';

/*
 * The instrumentation benchmark at a tiny size: three figures (a do-nothing
 * recorder, the no-op API, the SDK), each with the uninstrumented session of
 * the same run as its baseline. No timing is asserted.
 */
describe('bench suite 6 (otel)', () => {
  it('should measure each instrumented side against the uninstrumented session of the same run', async () => {
    const figures = await otelFigures({ cycles: 20, runs: 2 });
    expect(figures.map((f) => f.name)).toEqual([
      'beginToolCall + endToolCall, a recorder that does nothing (entries built)',
      'beginToolCall + endToolCall, OpenTelemetry recorder, no SDK (no-op API)',
      'beginToolCall + endToolCall, OpenTelemetry recorder with the SDK (metrics + spans)',
    ]);
    for (const f of figures) {
      expect(f.suite).toBe('otel');
      expect(f.runs).toBe(2);
      expect(f.median).toBeGreaterThan(0);
      expect(f.baseline?.name).toBe('the same session, no recorder');
      expect(f.baseline?.ratio).toBeGreaterThan(0);
    }
  });
});
