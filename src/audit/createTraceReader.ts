import * as z from 'zod/mini';
import type { AuditTrace } from './AuditTrace.js';
import { aiSdkTrace } from './aiSdkTrace.js';
import { createClaudeCodeCollector, isClaudeCodeLine } from './claudeCodeTrace.js';
import { openaiTrace } from './openaiTrace.js';
import { createOtelCollector, isOtelExport } from './otelTrace.js';
import type { RowRead } from './RowRead.js';
import type { TraceIssue } from './TraceIssue.js';

/** The trace formats the audit reads. */
export const TraceFormat = z.enum(['openai', 'ai-sdk', 'claude-code', 'otel']);
export type TraceFormat = z.infer<typeof TraceFormat>;

/** What a reader tells, in input order (transcripts and span traces at the end of their file). */
export type TraceReadEvent =
  | { type: 'trace'; trace: AuditTrace; format: TraceFormat }
  | { type: 'skipped'; file: string; line: number; reason: string }
  | { type: 'malformed'; issue: TraceIssue };

export interface TraceReaderOptions {
  /** The file's name, for ids and problems. */
  file: string;
  /** `auto` (default) detects the format from the input. */
  format?: TraceFormat | 'auto';
  onRead: (event: TraceReadEvent) => void;
}

/** Reads one file's traces from its JSON values. See {@link createTraceReader}. */
export interface TraceReader {
  /** One JSON value: a JSON Lines row with its line, or a whole JSON file's value (line 1; an array holds one conversation an element). */
  push(value: unknown, line: number): void;
  /** The file is over: transcripts and span traces are finished and told. */
  end(): void;
  /** The format read, once known. */
  readonly format: TraceFormat | undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a conversation's messages are the AI SDK's (typed `parts`, or `tool-call`/`tool-result` content parts). */
function messagesFormat(messages: unknown): 'openai' | 'ai-sdk' {
  if (!Array.isArray(messages)) return 'openai';
  for (const m of messages) {
    if (!isObject(m)) continue;
    if (Array.isArray(m.parts)) return 'ai-sdk';
    if ('tool_calls' in m || 'tool_call_id' in m) return 'openai';
    if (Array.isArray(m.content))
      for (const p of m.content)
        if (isObject(p) && (p.type === 'tool-call' || p.type === 'tool-result')) return 'ai-sdk';
  }
  return 'openai';
}

/**
 * The format of one JSON value (a JSON Lines row, or a JSON file's value), or undefined when it
 * shows none (a metadata row, say).
 *
 * @example
 * detectTraceFormat({ messages: [{ role: 'assistant', tool_calls: [] }] }); // 'openai'
 * detectTraceFormat({ resourceSpans: [] });                                 // 'otel'
 */
export function detectTraceFormat(value: unknown): TraceFormat | undefined {
  if (Array.isArray(value)) return value.length > 0 ? detectTraceFormat(value[0]) : undefined;
  if (!isObject(value)) return undefined;
  if (isOtelExport(value)) return 'otel';
  if ('messages' in value) return messagesFormat(value.messages);
  if (isClaudeCodeLine(value)) return 'claude-code';
  return undefined;
}

const baseName = (file: string) => file.split(/[\\/]/).pop() || file;

/**
 * Turns one file's JSON values into traces, detecting the format unless one is given:
 * a conversation a row (`openai`, `ai-sdk`, each row detected on its own under `auto`), a
 * transcript a session (`claude-code`), spans grouped by trace id (`otel`). Rows that are no
 * conversation are told as skipped; a trace that cannot be read is told as malformed, naming the
 * line and the field, and the reading goes on.
 *
 * @example
 * const reader = createTraceReader({ file: 'export.jsonl', onRead: (e) => console.log(e.type) });
 * reader.push({ messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }] }, 1);
 * reader.end(); // logs 'trace'
 */
export function createTraceReader(options: TraceReaderOptions): TraceReader {
  const { file, onRead } = options;
  const fixed = options.format === 'auto' ? undefined : options.format;
  let format: TraceFormat | undefined = fixed;
  const base = baseName(file);
  let collector: ReturnType<typeof createClaudeCodeCollector> | ReturnType<typeof createOtelCollector> | undefined;

  const tell = (r: RowRead, line: number, f: TraceFormat) => {
    if (r.type === 'trace') onRead({ type: 'trace', trace: r.trace, format: f });
    else if (r.type === 'skipped') onRead({ type: 'skipped', file, line: r.line ?? line, reason: r.reason });
    else
      onRead({
        type: 'malformed',
        issue: { file, line: r.line ?? line, trace: r.id, path: r.path, message: r.message },
      });
  };

  const row = (value: unknown, line: number, prefix: (string | number)[], id: string) => {
    const f = fixed ?? (isObject(value) && 'messages' in value ? messagesFormat(value.messages) : 'openai');
    if (format === undefined && isObject(value) && 'messages' in value) format = f;
    const at = { file, line, prefix, id };
    tell(f === 'ai-sdk' ? aiSdkTrace(value, at) : openaiTrace(value, at), line, f);
  };

  return {
    get format() {
      return format;
    },
    push(value, line) {
      if (collector === undefined && (format === undefined || format === 'claude-code' || format === 'otel')) {
        const f = fixed ?? detectTraceFormat(value);
        if (f === 'claude-code') collector = createClaudeCodeCollector(file, base.replace(/\.[^.]*$/, ''));
        else if (f === 'otel') collector = createOtelCollector(file);
        if (f === 'claude-code' || f === 'otel') format = f;
      }
      if (collector) {
        const r = collector.line(value, line);
        if (r) tell(r, line, format!);
        return;
      }
      if (Array.isArray(value)) value.forEach((v, i) => row(v, line, [i], `${base}[${i}]`));
      else row(value, line, [], `${base}:${line}`);
    },
    end() {
      if (collector) for (const r of collector.end()) tell(r, 0, format!);
    },
  };
}
