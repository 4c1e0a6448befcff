import {
  context,
  metrics,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Counter,
  type Histogram,
  type Meter,
  type Span,
  type Tracer,
  type UpDownCounter,
} from '@opentelemetry/api';
import type { RecordingEntry, SessionRecorder } from '../index.js';
import { keysOf, refuseUnknownOptions } from '../core/knownKeys.js';
import {
  ATTR,
  createEntryInterpreter,
  createToolNamer,
  METRICS,
  metricPointsOf,
  type EntryFacts,
  type MetricDescriptor,
  type MetricKey,
  type OpenCall,
} from '../insights/index.js';

/*
 * The gate's metrics and traces through @opentelemetry/api only: a recorder
 * (the session's `recorder` option, or one of `combineRecorders`) that turns
 * every entry into metric points and tool calls into spans. Until the
 * application registers an OpenTelemetry SDK the API is a no-op and nothing
 * is exported.
 */

/** The instrumentation scope's name (meter and tracer). */
export const INSTRUMENTATION_SCOPE = 'assistant-safety';

/** The span name of a tool call. */
export const TOOL_CALL_SPAN = 'assistant_safety.tool_call';

/** Span attribute keys, besides the metrics' {@link ATTR}. */
export const SPAN_ATTR = {
  sessionId: 'assistant_safety.session.id',
  stateBefore: 'assistant_safety.state.before',
  stateAfter: 'assistant_safety.state.after',
  outcome: 'assistant_safety.outcome',
  verified: 'assistant_safety.verified',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
} as const;

/** The span event added to the active span when a final answer is refused. */
export const FINAL_ANSWER_BLOCKED_EVENT = 'assistant_safety.final_answer.blocked';

export interface OtelRecorderOptions {
  /** Default: `metrics.getMeter('assistant-safety')` of the global API, taken at the first entry. */
  meter?: Meter;
  /** Default: `trace.getTracer('assistant-safety')` of the global API. */
  tracer?: Tracer;
  /**
   * Tool names metrics may carry as they are; any other becomes `other`. A
   * number instead: the first that many distinct names seen. Default 50.
   * (Spans carry the real name: their cardinality does not matter.)
   */
  toolNames?: readonly string[] | number;
  /** Record metrics. Default true. */
  metrics?: boolean;
  /** Record spans. Default true. */
  traces?: boolean;
  /** Sessions tracked at once (calls in flight, pending blocks and writes). Default 10,000. */
  maxSessions?: number;
}

/** A session recorder that reports to OpenTelemetry. */
export interface OtelRecorder extends SessionRecorder {
  /** Ends the spans of calls still in flight (outcome `abandoned`): call at shutdown. */
  endOpenSpans(): void;
}

type Instrument = Counter | UpDownCounter | Histogram;

function createInstruments(meter: Meter): Record<MetricKey, Instrument> {
  const out = {} as Record<MetricKey, Instrument>;
  for (const key of Object.keys(METRICS) as MetricKey[]) {
    const d: MetricDescriptor = METRICS[key];
    const options = { description: d.description, unit: d.unit };
    out[key] =
      d.instrument === 'counter'
        ? meter.createCounter(d.name, options)
        : d.instrument === 'updowncounter'
          ? meter.createUpDownCounter(d.name, options)
          : meter.createHistogram(d.name, {
              ...options,
              ...(d.buckets && { advice: { explicitBucketBoundaries: [...d.buckets] } }),
            });
  }
  return out;
}

const OPTION_KEYS = keysOf<OtelRecorderOptions>({
  meter: true,
  tracer: true,
  toolNames: true,
  metrics: true,
  traces: true,
  maxSessions: true,
});

/**
 * Creates a recorder that turns a session's entries into OpenTelemetry
 * metrics and spans: one span per tool call from `beginToolCall` to
 * `endToolCall` (a blocked call's span ends at once), started inside the
 * session's call, so it sits under the caller's active context.
 *
 * @example
 * import { combineRecorders, createSafetySession } from 'assistant-safety';
 * import { createOtelRecorder } from 'assistant-safety/otel';
 * const otel = createOtelRecorder({ toolNames: ['pulse_query', 'pulse_control'] });
 * const session = createSafetySession({ recorder: combineRecorders(fileRecorder, otel) });
 */
export function createOtelRecorder(options: OtelRecorderOptions = {}): OtelRecorder {
  refuseUnknownOptions('createOtelRecorder', options, OPTION_KEYS);
  const withMetrics = options.metrics ?? true;
  const withTraces = options.traces ?? true;
  const namer = createToolNamer(options.toolNames ?? 50);
  const interpreter = createEntryInterpreter({ maxSessions: options.maxSessions ?? 10_000 });
  // The API has no proxy meter: the global one is taken at the first entry, after the SDK was registered.
  let instruments: Record<MetricKey, Instrument> | undefined;
  let tracer = options.tracer;
  const spans = new Map<string, Span>();

  const spanKey = (session: string, id: string) => `${session}\u0000${id}`;

  function startSpan(facts: EntryFacts, id: string): Span {
    const { entry } = facts;
    tracer ??= trace.getTracer(INSTRUMENTATION_SCOPE);
    const attributes: Attributes = {
      [SPAN_ATTR.sessionId]: entry.session,
      [SPAN_ATTR.toolName]: facts.tool!,
      [SPAN_ATTR.toolCallId]: id,
      [ATTR.toolKind]: facts.kind!,
      [ATTR.decision]: entry.decision,
      [SPAN_ATTR.stateBefore]: entry.before,
    };
    if (entry.reasonCode !== undefined) attributes[ATTR.reasonCode] = entry.reasonCode;
    return tracer.startSpan(TOOL_CALL_SPAN, { kind: SpanKind.INTERNAL, attributes }, context.active());
  }

  function endSpan(span: Span, after: string, outcome: string, ok: boolean, verified?: boolean): void {
    span.setAttribute(SPAN_ATTR.stateAfter, after);
    span.setAttribute(SPAN_ATTR.outcome, outcome);
    if (verified !== undefined) span.setAttribute(SPAN_ATTR.verified, verified);
    if (!ok) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
    span.end();
  }

  function endDropped(session: string, calls: readonly OpenCall[], after: string, outcome: string): void {
    for (const call of calls) {
      const key = spanKey(session, call.id);
      const span = spans.get(key);
      if (!span) continue;
      spans.delete(key);
      endSpan(span, after, outcome, true);
    }
  }

  function traceEntry(facts: EntryFacts): void {
    const { entry } = facts;
    const { call } = entry;
    if (facts.began) {
      const key = spanKey(entry.session, facts.began.id);
      // The id begun again (a session restored from a snapshot taken before the first begin):
      // the earlier call will never end, so its span ends here rather than never.
      const earlier = spans.get(key);
      if (earlier) {
        spans.delete(key);
        endSpan(earlier, entry.before, 'abandoned', true);
      }
      spans.set(key, startSpan(facts, facts.began.id));
    } else if ((call.type === 'beginToolCall' && entry.decision === 'blocked') || call.type === 'recordLoopBlock') {
      // A blocked call never runs: its span starts and ends here.
      endSpan(startSpan(facts, call.id), entry.after, 'blocked', true);
    } else if (facts.ended) {
      const key = spanKey(entry.session, facts.ended.call.id);
      const span = spans.get(key);
      if (span) {
        spans.delete(key);
        endSpan(span, entry.after, facts.ended.ok ? 'ok' : 'failed', facts.ended.ok, facts.ended.verified);
      }
    } else if (facts.finalAnswer?.decision === 'blocked') {
      trace.getSpan(context.active())?.addEvent(FINAL_ANSWER_BLOCKED_EVENT, {
        [SPAN_ATTR.sessionId]: entry.session,
        [ATTR.state]: entry.before,
        ...(entry.reasonCode !== undefined && { [ATTR.reasonCode]: entry.reasonCode }),
      });
    }
    if (facts.dropped.length > 0) endDropped(entry.session, facts.dropped, entry.after, 'dropped');
  }

  function recordMetrics(facts: EntryFacts, evictedWrites: number): void {
    const points = metricPointsOf(facts, namer);
    if (evictedWrites > 0) points.push({ metric: 'unverifiedWrites', value: -evictedWrites, attributes: {} });
    if (points.length === 0) return;
    instruments ??= createInstruments(options.meter ?? metrics.getMeter(INSTRUMENTATION_SCOPE));
    for (const point of points) {
      const instrument = instruments[point.metric];
      if (METRICS[point.metric].instrument === 'histogram')
        (instrument as Histogram).record(point.value, point.attributes);
      else (instrument as Counter).add(point.value, point.attributes);
    }
  }

  return {
    record(entry: RecordingEntry): void {
      const facts = interpreter.observe(entry);
      // Calls of sessions the interpreter forgot: end their spans rather than keep them forever.
      const evicted = interpreter.evicted();
      // Traces and metrics apart: a tracer (or span processor) that throws loses neither the entry's
      // metric points nor the evicted calls' spans. The first error still reaches the session.
      let failure: { error: unknown } | undefined;
      const guard = (run: () => void) => {
        try {
          run();
        } catch (error) {
          failure ??= { error };
        }
      };
      if (withTraces) {
        guard(() => traceEntry(facts));
        guard(() => {
          for (const call of evicted.calls) endDropped(call.session, [call], 'unknown', 'abandoned');
        });
      }
      if (withMetrics) guard(() => recordMetrics(facts, evicted.unverifiedWrites));
      if (failure) throw failure.error;
    },
    endOpenSpans(): void {
      for (const span of spans.values()) endSpan(span, 'unknown', 'abandoned', true);
      spans.clear();
    },
  };
}
