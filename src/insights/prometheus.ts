import { METRICS, type MetricDescriptor, type MetricKey, type MetricPoint } from './metricPoints.js';

/*
 * A small Prometheus registry for the gate's metric points: the series the
 * OpenTelemetry recorder's metrics become under the OpenTelemetry
 * specification's Prometheus compatibility rules (the Collector, Prometheus'
 * OTLP receiver): dots become underscores, counters end in `_total`, a
 * duration in seconds ends in `_seconds`. Rendered in the text format 0.0.4.
 */

/**
 * The Prometheus name of a metric, by the OpenTelemetry specification's Prometheus compatibility rules.
 *
 * @example
 * prometheusName(METRICS.verificationDuration); // 'assistant_safety_verification_duration_seconds'
 */
export function prometheusName(descriptor: MetricDescriptor): string {
  const base = descriptor.name.replace(/[^a-zA-Z0-9_:]/g, '_');
  const unit = descriptor.unit === 's' ? '_seconds' : '';
  const withUnit = base.endsWith(unit) ? base : base + unit;
  return descriptor.instrument === 'counter' ? `${withUnit}_total` : withUnit;
}

/**
 * A label name from an attribute key.
 *
 * @example
 * prometheusLabel('assistant_safety.tool.name'); // 'assistant_safety_tool_name'
 */
export function prometheusLabel(key: string): string {
  return key.replace(/[^a-zA-Z0-9_]/g, '_');
}

const escapeValue = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const escapeHelp = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

function labelText(attributes: Record<string, string>, extra?: [string, string]): string {
  const parts = Object.keys(attributes)
    .sort()
    .map((k) => `${prometheusLabel(k)}="${escapeValue(attributes[k]!)}"`);
  if (extra) parts.push(`${extra[0]}="${escapeValue(extra[1])}"`);
  return parts.length === 0 ? '' : `{${parts.join(',')}}`;
}

const formatNumber = (n: number) => (Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(15))));

interface Series {
  attributes: Record<string, string>;
  value: number;
  /** Histogram: counts per bucket (not cumulative) and the sum. */
  buckets?: number[];
  sum?: number;
}

/** A gauge the caller sets at render time (e.g. sessions seen). */
export interface ExtraGauge {
  name: string;
  help: string;
  value: number;
  type?: 'gauge' | 'counter';
}

/** See {@link createPrometheusRegistry}. */
export interface PrometheusRegistry {
  add(points: readonly MetricPoint[]): void;
  /** The text exposition of every metric (those without points too, as a HELP and TYPE). */
  render(extra?: readonly ExtraGauge[]): string;
}

/**
 * Accumulates metric points and renders them as Prometheus text.
 *
 * @example
 * const registry = createPrometheusRegistry();
 * registry.add(metricPointsOf(interpreter.observe(entry), namer));
 * response.end(registry.render());
 */
export function createPrometheusRegistry(): PrometheusRegistry {
  const series = new Map<MetricKey, Map<string, Series>>();

  function add(points: readonly MetricPoint[]): void {
    for (const point of points) {
      let bySeries = series.get(point.metric);
      if (!bySeries) series.set(point.metric, (bySeries = new Map()));
      const key = labelText(point.attributes);
      let s = bySeries.get(key);
      const descriptor: MetricDescriptor = METRICS[point.metric];
      if (!s) {
        s = { attributes: point.attributes, value: 0 };
        if (descriptor.instrument === 'histogram') {
          s.buckets = new Array<number>((descriptor.buckets?.length ?? 0) + 1).fill(0);
          s.sum = 0;
        }
        bySeries.set(key, s);
      }
      if (descriptor.instrument === 'histogram') {
        const bounds = descriptor.buckets ?? [];
        let i = bounds.findIndex((b) => point.value <= b);
        if (i < 0) i = bounds.length;
        s.buckets![i]! += 1;
        s.sum! += point.value;
        s.value += 1;
      } else {
        s.value += point.value;
      }
    }
  }

  function render(extra: readonly ExtraGauge[] = []): string {
    const lines: string[] = [];
    for (const key of Object.keys(METRICS) as MetricKey[]) {
      const descriptor: MetricDescriptor = METRICS[key];
      const name = prometheusName(descriptor);
      const type =
        descriptor.instrument === 'counter' ? 'counter' : descriptor.instrument === 'histogram' ? 'histogram' : 'gauge';
      lines.push(`# HELP ${name} ${escapeHelp(descriptor.description)}`, `# TYPE ${name} ${type}`);
      const all = [...(series.get(key)?.values() ?? [])];
      if (descriptor.instrument === 'updowncounter' && all.length === 0) lines.push(`${name} 0`);
      for (const s of all) {
        if (descriptor.instrument !== 'histogram') {
          lines.push(`${name}${labelText(s.attributes)} ${formatNumber(s.value)}`);
          continue;
        }
        const bounds = descriptor.buckets ?? [];
        let cumulative = 0;
        bounds.forEach((bound, i) => {
          cumulative += s.buckets![i]!;
          lines.push(`${name}_bucket${labelText(s.attributes, ['le', formatNumber(bound)])} ${cumulative}`);
        });
        lines.push(`${name}_bucket${labelText(s.attributes, ['le', '+Inf'])} ${s.value}`);
        lines.push(`${name}_sum${labelText(s.attributes)} ${formatNumber(s.sum!)}`);
        lines.push(`${name}_count${labelText(s.attributes)} ${s.value}`);
      }
    }
    for (const g of extra) {
      lines.push(
        `# HELP ${g.name} ${escapeHelp(g.help)}`,
        `# TYPE ${g.name} ${g.type ?? 'gauge'}`,
        `${g.name} ${formatNumber(g.value)}`,
      );
    }
    return lines.join('\n') + '\n';
  }

  return { add, render };
}
