import * as z from 'zod/mini';
import { TraceBuilder } from './TraceBuilder.js';
import { parseOr, readArguments } from './parseProblem.js';
import type { RowRead } from './RowRead.js';

/*
 * OpenTelemetry GenAI spans in the OTLP JSON encoding (what the collector's file exporter writes:
 * one `{ "resourceSpans": [...] }` object a line). A tool call is a span whose
 * `gen_ai.operation.name` is `execute_tool`, naming its tool in `gen_ai.tool.name`, its call in
 * `gen_ai.tool.call.id` (else the span id) and its arguments in `gen_ai.tool.call.arguments`;
 * it failed when its status code is ERROR or it has an `error.type`. Spans overlapping in time ran
 * together (a batch). The final answer is an inference span (`chat`, `text_completion`,
 * `generate_content`) after the last tool span whose `gen_ai.response.finish_reasons` does not
 * ask for tools. The spans of one trace id are one trace; they may spread over lines, so traces
 * are finished at the end of the file.
 */

/** An OTLP `AnyValue`: one of its typed fields. */
const AnyValue = z.looseObject({
  stringValue: z.optional(z.string()),
  boolValue: z.optional(z.boolean()),
  intValue: z.optional(z.union([z.string(), z.number()])),
  doubleValue: z.optional(z.number()),
  arrayValue: z.optional(z.looseObject({ values: z.optional(z.array(z.unknown())) })),
});

/** An OTLP span, the fields the audit reads. */
export const OtelSpan = z.looseObject({
  traceId: z.string().check(z.minLength(1)),
  spanId: z.string().check(z.minLength(1)),
  name: z.optional(z.string()),
  startTimeUnixNano: z.union([z.string(), z.number()]),
  endTimeUnixNano: z.optional(z.union([z.string(), z.number()])),
  attributes: z.optional(z.array(z.looseObject({ key: z.string(), value: z.optional(AnyValue) }))),
  status: z.optional(z.looseObject({ code: z.optional(z.union([z.number(), z.string()])) })),
});
export type OtelSpan = z.infer<typeof OtelSpan>;

/** One OTLP JSON export: resource spans, scope spans, spans. */
export const OtelExport = z.looseObject({
  resourceSpans: z.array(
    z.looseObject({ scopeSpans: z.optional(z.array(z.looseObject({ spans: z.optional(z.array(z.unknown())) }))) }),
  ),
});
export type OtelExport = z.infer<typeof OtelExport>;

const INFERENCE = new Set(['chat', 'text_completion', 'generate_content']);
const TOOL_FINISH = new Set(['tool_calls', 'tool_use', 'tool-calls', 'function_call']);

interface ToolSpan {
  type: 'tool';
  id: string;
  tool: string;
  args: unknown;
  /** Its arguments are not JSON. */
  unreadable: boolean;
  ok: boolean;
  start: number;
  end: number;
  line: number;
  path: string;
}
interface InferenceSpan {
  type: 'inference';
  start: number;
  end: number;
  asksForTools: boolean;
}

function attribute(span: OtelSpan, key: string): unknown {
  const v = span.attributes?.find((a) => a.key === key)?.value;
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map((x) => (x as { stringValue?: unknown }).stringValue);
  return undefined;
}

const ms = (nanos: string | number | undefined) => (nanos === undefined ? Number.NaN : Number(nanos) / 1e6);

/** Whether a JSON value looks like an OTLP JSON export. */
export function isOtelExport(v: unknown): boolean {
  return typeof v === 'object' && v !== null && Array.isArray((v as { resourceSpans?: unknown }).resourceSpans);
}

/** Collects the GenAI spans of a file by trace id; traces are finished at the end of the file. */
export function createOtelCollector(file: string) {
  const traces = new Map<
    string,
    { line: number; spans: (ToolSpan | InferenceSpan)[]; problem?: { line: number; path: string; message: string } }
  >();
  return {
    line(value: unknown, line: number): RowRead | undefined {
      const parsed = parseOr(OtelExport, value, []);
      if ('problem' in parsed) return { type: 'malformed', id: `${file}:${line}`, line, ...parsed.problem };
      for (const [r, rs] of parsed.data.resourceSpans.entries())
        for (const [s, ss] of (rs.scopeSpans ?? []).entries())
          for (const [k, raw] of (ss.spans ?? []).entries()) {
            const prefix = ['resourceSpans', r, 'scopeSpans', s, 'spans', k];
            const span = parseOr(OtelSpan, raw, prefix);
            if ('problem' in span) {
              const traceId = (raw as { traceId?: unknown } | null)?.traceId;
              const id = typeof traceId === 'string' && traceId ? traceId : `${file}:${line}`;
              const t = traces.get(id) ?? { line, spans: [] };
              t.problem ??= { line, ...span.problem };
              traces.set(id, t);
              continue;
            }
            const sp = span.data;
            const op = attribute(sp, 'gen_ai.operation.name');
            if (op !== 'execute_tool' && !(typeof op === 'string' && INFERENCE.has(op))) continue;
            let t = traces.get(sp.traceId);
            if (!t) traces.set(sp.traceId, (t = { line, spans: [] }));
            const start = ms(sp.startTimeUnixNano);
            const end = sp.endTimeUnixNano === undefined ? start : ms(sp.endTimeUnixNano);
            if (!Number.isFinite(start) || !Number.isFinite(end)) {
              const field = Number.isFinite(start) ? 'endTimeUnixNano' : 'startTimeUnixNano';
              t.problem ??= {
                line,
                path: `${pathOf(prefix)}.${field}`,
                message: `expected nanoseconds since the epoch; got ${JSON.stringify(sp[field])}`,
              };
              continue;
            }
            if (op === 'execute_tool') {
              const tool = attribute(sp, 'gen_ai.tool.name');
              if (typeof tool !== 'string' || tool === '') {
                t.problem ??= {
                  line,
                  path: `${pathOf(prefix)}.attributes`,
                  message: `an execute_tool span needs gen_ai.tool.name; got ${tool === undefined ? 'nothing' : JSON.stringify(tool)}`,
                };
                continue;
              }
              const callId = attribute(sp, 'gen_ai.tool.call.id');
              const code = sp.status?.code;
              t.spans.push({
                type: 'tool',
                id: typeof callId === 'string' && callId !== '' ? callId : sp.spanId,
                tool,
                ...readArguments(attribute(sp, 'gen_ai.tool.call.arguments')),
                ok: !(code === 2 || code === 'STATUS_CODE_ERROR' || attribute(sp, 'error.type') !== undefined),
                start,
                end,
                line,
                path: pathOf(prefix),
              });
            } else {
              const reasons = attribute(sp, 'gen_ai.response.finish_reasons');
              const list = Array.isArray(reasons) ? reasons : typeof reasons === 'string' ? [reasons] : [];
              t.spans.push({
                type: 'inference',
                start,
                end,
                asksForTools: list.some((x) => TOOL_FINISH.has(String(x))),
              });
            }
          }
      return undefined;
    },
    end(): RowRead[] {
      const out: RowRead[] = [];
      for (const [id, t] of traces) {
        if (t.problem) {
          out.push({ type: 'malformed', id, ...t.problem });
          continue;
        }
        out.push(build(id, file, t.line, t.spans));
      }
      traces.clear();
      return out;
    },
  };
}

const pathOf = (prefix: (string | number)[]) =>
  prefix.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${k}` : k), '');

/** A trace's steps from its spans: every start and end in time order (an end first at the same instant, unless it is its own span's). */
function build(id: string, file: string, line: number, spans: (ToolSpan | InferenceSpan)[]): RowRead {
  const tools = spans.filter((s): s is ToolSpan => s.type === 'tool');
  const events: { t: number; begin: boolean; span: ToolSpan; order: number }[] = [];
  tools.forEach((span, order) => {
    events.push({ t: span.start, begin: true, span, order });
    events.push({ t: span.end, begin: false, span, order });
  });
  events.sort((a, b) => a.t - b.t || Number(a.begin) - Number(b.begin) || a.order - b.order);
  const b = new TraceBuilder();
  const begun = new Set<ToolSpan>();
  const deferred = new Set<ToolSpan>();
  for (const e of events) {
    const place = { line: e.span.line, path: e.span.path };
    if (e.begin) {
      b.call(e.span.id, e.span.tool, e.span.args, place, e.t);
      if (e.span.unreadable)
        b.unreadableArguments(e.span.id, e.span.tool, e.span.args, { ...place, path: `${place.path}.attributes` });
      begun.add(e.span);
      if (deferred.delete(e.span)) b.result(e.span.id, e.span.ok, place, e.span.end);
    } else if (begun.has(e.span)) b.result(e.span.id, e.span.ok, place, e.t);
    else deferred.add(e.span);
  }
  if (b.problem) return { type: 'malformed', id, ...b.problem };
  let lastToolEnd = -Infinity;
  for (const s of tools) if (s.end > lastToolEnd) lastToolEnd = s.end;
  const inference = spans.filter((s): s is InferenceSpan => s.type === 'inference').sort((a, b) => a.end - b.end);
  const last = inference[inference.length - 1];
  if (last && !last.asksForTools && last.start >= lastToolEnd) b.text(last.end);
  return { type: 'trace', trace: b.finish(id, file, line) };
}
