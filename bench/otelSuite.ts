import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { createSafetySession, type SafetySessionOptions } from '../src/index.js';
import { createOtelRecorder } from '../src/otel/index.js';
import { makeFigure, opsPerSecondPaired, ratioText, type Figure } from './measure.js';
import { lifecycleCycles } from './gate.js';

/*
 * What the OpenTelemetry recorder costs the gate: the lifecycle cycle of the
 * gate suite (6 begin/end pairs, one block, one verification) with no
 * recorder, against the same cycle recorded by (1) a recorder that does
 * nothing (the cost of building entries), (2) the OpenTelemetry recorder with
 * the no-op API (no SDK registered), (3) the recorder with the SDK (a meter
 * provider with a reader, a tracer provider whose span processor hands each
 * span to an exporter that drops it). Interleaved run by run, same process.
 */

const PAIRS_PER_CYCLE = 6;

export interface OtelSizes {
  /** Session cycles per run. */
  cycles: number;
  /** Measured runs of each side, interleaved. */
  runs: number;
}

class PullReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const dropSpans: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => {},
};

export async function otelFigures({ cycles = 10_000, runs = 5 }: Partial<OtelSizes> = {}): Promise<Figure[]> {
  const ops = cycles * PAIRS_PER_CYCLE;
  let t = 0;
  const cycle = (options: () => SafetySessionOptions) => () => {
    const s = createSafetySession({ now: () => t++, ...options() });
    lifecycleCycles(s, cycles);
  };

  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(dropSpans)] });

  const bare = cycle(() => ({}));
  const sides: Array<[string, () => void]> = [
    ['a recorder that does nothing (entries built)', cycle(() => ({ recorder: { record: () => {} } }))],
    ['OpenTelemetry recorder, no SDK (no-op API)', cycle(() => ({ recorder: createOtelRecorder() }))],
    [
      'OpenTelemetry recorder with the SDK (metrics + spans)',
      cycle(() => ({
        recorder: createOtelRecorder({
          meter: meterProvider.getMeter('bench'),
          tracer: tracerProvider.getTracer('bench'),
        }),
      })),
    ],
  ];
  const figures: Figure[] = [];
  for (const [name, fn] of sides) {
    const [subject, base] = opsPerSecondPaired(fn, bare, ops, runs);
    figures.push(
      makeFigure({
        suite: 'otel',
        name: `beginToolCall + endToolCall, ${name}`,
        unit: 'pairs/s',
        better: 'higher',
        runs: subject,
        baseline: {
          name: 'the same session, no recorder',
          runs: base,
          describe: (ratio) => ratioText(ratio, 'slower'),
        },
      }),
    );
  }
  await reader.collect();
  await meterProvider.shutdown();
  await tracerProvider.shutdown();
  return figures;
}
