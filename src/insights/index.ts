/*
 * assistant-safety/insights: what recordings and live sessions say about the
 * gate, aggregated (runtime-neutral, no `node:` import). One interpreter of
 * entries feeds `assistant-safety stats`, the `/metrics` endpoint of `serve`,
 * the app's Insights mode and the OpenTelemetry recorder of
 * `assistant-safety/otel`, so all of them count the same things.
 * docs/observability.md describes every aggregate and metric.
 */
export { createEntryInterpreter } from './interpretEntries.js';
export type {
  EntryFacts,
  EntryInterpreter,
  EntryInterpreterOptions,
  OpenCall,
  CorrectedBlock,
  WriteLanding,
} from './interpretEntries.js';
export {
  createInsights,
  summariseEntries,
  durationStats,
  InsightsSummary,
  DurationStats,
  InsightsDetails,
  EntryRef,
  BlockRef,
  WriteRef,
  LiveInsights,
  LIVE_INSIGHTS_PATH,
  LIVE_SOURCE,
} from './aggregate.js';
export type { Insights, InsightsOptions } from './aggregate.js';
export { METRICS, ATTR, OTHER_TOOL, VERIFICATION_BUCKETS_S, createToolNamer, metricPointsOf } from './metricPoints.js';
export type { MetricDescriptor, MetricInstrument, MetricKey, MetricPoint, ToolNamer } from './metricPoints.js';
export { createPrometheusRegistry, prometheusName, prometheusLabel } from './prometheus.js';
export type { PrometheusRegistry, ExtraGauge } from './prometheus.js';
