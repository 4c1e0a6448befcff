/*
 * assistant-safety/otel: the gate's metrics and traces through
 * @opentelemetry/api (an optional peer dependency of this subpath only; the
 * root entry never imports it). docs/observability.md lists the metric names,
 * attributes and spans.
 */
export {
  createOtelRecorder,
  INSTRUMENTATION_SCOPE,
  TOOL_CALL_SPAN,
  SPAN_ATTR,
  FINAL_ANSWER_BLOCKED_EVENT,
} from './createOtelRecorder.js';
export type { OtelRecorder, OtelRecorderOptions } from './createOtelRecorder.js';
export { METRICS, ATTR, OTHER_TOOL, VERIFICATION_BUCKETS_S, createToolNamer } from '../insights/index.js';
