import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  DataPointType,
  MeterProvider,
  MetricReader,
  type Histogram,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

/*
 * The OpenTelemetry SDK as a test sees it: a metric reader collected on
 * demand, an in-memory span exporter, and the async-hooks context manager so
 * spans started inside a session call find the caller's active span.
 */

/** A reader that only collects when asked (no timer). */
class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** One collected point: metric name, attributes and value (a histogram's count, sum and buckets). */
export interface Point {
  name: string;
  attributes: Record<string, unknown>;
  value: number | { count: number; sum: number };
}

export interface Sdk {
  meterProvider: MeterProvider;
  tracerProvider: BasicTracerProvider;
  spans: InMemorySpanExporter;
  /** Every point collected now, sorted by name then attributes. */
  points(): Promise<Point[]>;
  finishedSpans(): ReadableSpan[];
  shutdown(): Promise<void>;
}

let contextManager: AsyncLocalStorageContextManager | undefined;

/** Registers the async-hooks context manager once per test file. */
export function enableContext(): void {
  if (contextManager) return;
  contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
}

const sortKey = (p: Point) => `${p.name} ${JSON.stringify(Object.entries(p.attributes).sort())}`;

export function createSdk(): Sdk {
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  return {
    meterProvider,
    tracerProvider,
    spans,
    async points() {
      const { resourceMetrics, errors } = await reader.collect();
      if (errors.length > 0) throw new Error(`collect: ${errors.map(String).join('; ')}`);
      const out: Point[] = [];
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) {
          for (const dp of metric.dataPoints) {
            const value =
              metric.dataPointType === DataPointType.HISTOGRAM
                ? { count: (dp.value as Histogram).count, sum: (dp.value as Histogram).sum ?? 0 }
                : (dp.value as number);
            out.push({ name: metric.descriptor.name, attributes: { ...dp.attributes }, value });
          }
        }
      }
      return out.sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
    },
    finishedSpans: () => spans.getFinishedSpans(),
    async shutdown() {
      await meterProvider.shutdown();
      await tracerProvider.shutdown();
    },
  };
}

/** A point for `toEqual`. */
export const point = (name: string, attributes: Record<string, string>, value: Point['value'] = 1): Point => ({
  name,
  attributes,
  value,
});

export const sortPoints = (points: Point[]) => points.sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
