import { describe, expect, it } from 'vitest';
import { createMemoryRecorder, createSafetySession, restoreSafetySession } from 'assistant-safety';
import {
  createEntryInterpreter,
  createInsights,
  createPrometheusRegistry,
  createToolNamer,
  metricPointsOf,
  prometheusName,
  METRICS,
} from 'assistant-safety/insights';

/*
 * The one interpreter of entries behind stats, /metrics, Insights and the
 * OpenTelemetry recorder: corrections, write landings and verifications,
 * dropped calls; and the aggregates and Prometheus text built on it.
 */

function scripted() {
  const recorder = createMemoryRecorder();
  let t = 0;
  const s = createSafetySession({ id: 's', now: () => t, recorder });
  return { recorder, s, at: (ms: number) => (t = ms) };
}

describe('createEntryInterpreter', () => {
  it('should credit every earlier block of a tool to its next success, and only in the same session', () => {
    const { recorder, s } = scripted();
    s.beginToolCall({ id: 'a', kind: 'write', tool: 'restart' });
    s.beginToolCall({ id: 'b', kind: 'write', tool: 'restart' });
    s.beginToolCall({ id: 'c', kind: 'resolve', tool: 'find' });
    s.endToolCall({ id: 'c', ok: true });
    s.beginToolCall({ id: 'd', kind: 'write', tool: 'restart' });
    s.endToolCall({ id: 'd', ok: true });
    const other = createSafetySession({ id: 'other', recorder });
    other.onToolSuccess('write', 'restart');
    const interpreter = createEntryInterpreter();
    const facts = recorder.entries.map((e) => interpreter.observe(e));
    const corrections = facts.filter((f) => f.corrected.length > 0);
    expect(corrections).toHaveLength(1);
    expect(corrections[0]!.entry.call).toEqual({ type: 'endToolCall', id: 'd', ok: true });
    expect(corrections[0]!.corrected.map((b) => [b.reasonCode, b.seq])).toEqual([
      ['NO_VALIDATED_TARGET', 1],
      ['NO_VALIDATED_TARGET', 2],
    ]);
  });

  it('should time a write from landing to the evidence, and a self-verified write at zero', () => {
    const { recorder, s, at } = scripted();
    s.targetEstablished();
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart' });
    at(1000);
    s.endToolCall({ id: 'w', ok: true });
    at(1500);
    s.beginToolCall({ id: 'r', kind: 'read', tool: 'status' });
    at(4000);
    s.endToolCall({ id: 'r', ok: true });
    s.completeVerification();
    s.beginToolCall({ id: 'w2', kind: 'write', tool: 'restart' });
    s.endToolCall({ id: 'w2', ok: true, verified: true });
    const interpreter = createEntryInterpreter();
    const verified = recorder.entries.map((e) => interpreter.observe(e)).filter((f) => f.verified);
    expect(verified.map((f) => [f.verified!.write.tool, f.verified!.ms])).toEqual([
      ['restart', 3000],
      ['restart', 0],
    ]);
  });

  it('should count a write landed before a restore from its landing, and a reset as leaving it unverified', () => {
    const first = scripted();
    first.s.targetEstablished();
    first.at(100);
    first.s.onToolSuccess('write', 'restart');
    const recorder = createMemoryRecorder();
    let t = 700;
    const again = restoreSafetySession(first.s.persist(), { recorder, now: () => t });
    again.onToolSuccess('read', 'status');
    again.completeVerification();
    again.onToolSuccess('write', 'stop');
    again.reset();
    const insights = createInsights({ details: true });
    for (const e of recorder.entries) insights.add(e, 'restored.jsonl');
    const summary = insights.summary();
    expect(summary.writes).toMatchObject({ landed: 2, verified: 1, unverified: 1 });
    expect(summary.writes.timeToVerifyMs?.median).toBe(600);
    const interpreter = createEntryInterpreter();
    const abandoned = recorder.entries.map((e) => interpreter.observe(e)).filter((f) => f.abandoned);
    expect(abandoned.map((f) => [f.entry.call.type, f.abandoned!.tool])).toEqual([['reset', 'stop']]);
  });

  it('should hand back the calls a reset dropped and those of a session it forgot', () => {
    const { recorder, s } = scripted();
    s.beginToolCall({ id: 'r', kind: 'resolve', tool: 'find' });
    s.reset();
    const interpreter = createEntryInterpreter({ maxSessions: 1 });
    const facts = recorder.entries.map((e) => interpreter.observe(e));
    expect(facts.at(-1)!.dropped.map((c) => c.id)).toEqual(['r']);
    const next = createMemoryRecorder();
    const a = createSafetySession({ id: 'a', recorder: next });
    a.beginToolCall({ id: 'x', kind: 'read', tool: 'logs' });
    a.targetEstablished();
    a.onToolSuccess('write', 'restart');
    createSafetySession({ id: 'b', recorder: next });
    for (const e of next.entries) interpreter.observe(e);
    const evicted = interpreter.evicted();
    expect(evicted.calls.map((c) => [c.session, c.id])).toEqual([['a', 'x']]);
    expect(evicted.unverifiedWrites).toBe(1);
    expect(interpreter.evicted()).toEqual({ calls: [], unverifiedWrites: 0 });
    expect(interpreter.size).toBe(1);
  });
});

describe('createInsights', () => {
  it('should keep the entries behind each block and write for the charts', () => {
    const { recorder, s, at } = scripted();
    s.beginToolCall({ id: 'a', kind: 'write', tool: 'restart' });
    s.targetEstablished();
    at(10);
    s.beginToolCall({ id: 'b', kind: 'write', tool: 'restart' });
    at(20);
    s.endToolCall({ id: 'b', ok: true });
    const insights = createInsights({ details: true });
    for (const e of recorder.entries) insights.add(e, 'f.jsonl');
    const { blocks, writes } = insights.details();
    expect(blocks).toEqual([
      {
        source: 'f.jsonl',
        session: 's',
        seq: 1,
        at: 0,
        reasonCode: 'NO_VALIDATED_TARGET',
        tool: 'restart',
        state: 'RESOLVING',
        correctedAt: 4,
      },
    ]);
    expect(writes).toEqual([{ source: 'f.jsonl', session: 's', seq: 4, at: 20, tool: 'restart' }]);
    expect(insights.summary().selfCorrection).toEqual({ blocked: 1, corrected: 1, rate: 1 });
  });
});

describe('tool names and the Prometheus text', () => {
  it('should bound tool names by an allow-list or a count', () => {
    const listed = createToolNamer(['a']);
    expect([listed('a'), listed('b')]).toEqual(['a', 'other']);
    const firstTwo = createToolNamer(2);
    expect(['x', 'y', 'z', 'x'].map(firstTwo)).toEqual(['x', 'y', 'other', 'x']);
  });

  it('should name a tool over 128 characters other, without it taking one of the places', () => {
    const firstTwo = createToolNamer(2);
    const long = 'x'.repeat(1_000_000);
    expect([long, 'a'.repeat(128), 'b', 'c'].map(firstTwo)).toEqual(['other', 'a'.repeat(128), 'b', 'other']);
  });

  it("should name series as OpenTelemetry's Prometheus exporter does and render cumulative buckets", () => {
    expect(prometheusName(METRICS.decisions)).toBe('assistant_safety_decisions_total');
    expect(prometheusName(METRICS.verificationDuration)).toBe('assistant_safety_verification_duration_seconds');
    expect(prometheusName(METRICS.unverifiedWrites)).toBe('assistant_safety_writes_unverified');
    const { recorder, s, at } = scripted();
    s.targetEstablished();
    s.onToolSuccess('write', 'say "hi"\n');
    at(1500);
    s.onToolSuccess('read', 'status');
    const registry = createPrometheusRegistry();
    const interpreter = createEntryInterpreter();
    for (const e of recorder.entries) registry.add(metricPointsOf(interpreter.observe(e), createToolNamer()));
    const text = registry.render();
    const tool = 'assistant_safety_tool_name="say \\"hi\\"\\n"';
    expect(text).toContain(`assistant_safety_writes_total{${tool}} 1\n`);
    expect(text).toContain(`assistant_safety_verification_duration_seconds_bucket{${tool},le="1"} 0\n`);
    expect(text).toContain(`assistant_safety_verification_duration_seconds_bucket{${tool},le="2"} 1\n`);
    expect(text).toContain(`assistant_safety_verification_duration_seconds_bucket{${tool},le="+Inf"} 1\n`);
    expect(text).toContain(`assistant_safety_verification_duration_seconds_sum{${tool}} 1.5\n`);
    expect(text).toContain('# TYPE assistant_safety_verification_duration_seconds histogram\n');
  });
});
