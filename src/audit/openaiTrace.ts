import * as z from 'zod/mini';
import { formatPath } from '../core/Issue.js';
import { TraceBuilder } from './TraceBuilder.js';
import { declarationsOf, oneOf, parseOr, readArguments, type Problem } from './parseProblem.js';
import type { RowRead } from './RowRead.js';

const nonEmpty = z.string().check(z.minLength(1));
const content = z.optional(z.nullable(z.union([z.string(), z.array(z.unknown())])));

/** One entry of an assistant message's `tool_calls`: `arguments` a JSON string (the API's form) or an object. */
export const OpenAiToolCall = z.looseObject({
  id: nonEmpty,
  type: z.optional(z.string()),
  function: z.looseObject({
    name: nonEmpty,
    arguments: z.optional(z.union([z.string(), z.record(z.string(), z.unknown())])),
  }),
});
export type OpenAiToolCall = z.infer<typeof OpenAiToolCall>;

/** The roles a chat message may have. */
export const OPENAI_ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;

const OpenAiOtherMessage = z.looseObject({ role: z.enum(['system', 'developer', 'user']), content });
const OpenAiAssistantMessage = z.looseObject({
  role: z.literal('assistant'),
  content,
  tool_calls: z.optional(z.nullable(z.array(OpenAiToolCall))),
});
/** `error` non-null: the call failed (a field many exports add). */
const OpenAiToolMessage = z.looseObject({
  role: z.literal('tool'),
  tool_call_id: nonEmpty,
  content,
  error: z.optional(z.unknown()),
});

/** An OpenAI chat message, by role: assistant messages carry `tool_calls`, `tool` messages answer one. */
export const OpenAiMessage = z.union([OpenAiOtherMessage, OpenAiAssistantMessage, OpenAiToolMessage]);
export type OpenAiMessage = z.infer<typeof OpenAiMessage>;

/** One conversation: a JSON Lines row, or one object of a JSON file. `id` and `tools` are optional. */
export const OpenAiTraceRow = z.looseObject({
  id: z.optional(z.union([z.string(), z.number()])),
  messages: z.array(z.unknown()),
  tools: z.optional(z.unknown()),
});
export type OpenAiTraceRow = z.infer<typeof OpenAiTraceRow>;

const SCHEMA_BY_ROLE = {
  system: OpenAiOtherMessage,
  developer: OpenAiOtherMessage,
  user: OpenAiOtherMessage,
  assistant: OpenAiAssistantMessage,
  tool: OpenAiToolMessage,
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown) => typeof v === 'string' && v !== '';

/**
 * The allocation-free check of one message against its role's schema, for the common case: true
 * when the message certainly passes. Anything it cannot vouch for goes to zod, which judges and
 * words the error.
 */
function quickMessage(m: unknown): boolean {
  if (!isRecord(m)) return false;
  const c = m.content;
  if (!(c === undefined || c === null || typeof c === 'string' || Array.isArray(c))) return false;
  switch (m.role) {
    case 'user':
    case 'system':
    case 'developer':
      return true;
    case 'tool':
      return isId(m.tool_call_id);
    case 'assistant': {
      const calls = m.tool_calls;
      if (calls === undefined || calls === null) return true;
      if (!Array.isArray(calls)) return false;
      for (const call of calls) {
        if (!isRecord(call) || !isId(call.id) || !(call.type === undefined || typeof call.type === 'string'))
          return false;
        const fn = call.function;
        if (!isRecord(fn) || !isId(fn.name)) return false;
        if (!(fn.arguments === undefined || typeof fn.arguments === 'string' || isRecord(fn.arguments))) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/** Whether a message's content holds text: a non-empty string, or a text part with some. */
export function hasText(content: unknown): boolean {
  if (typeof content === 'string') return content.trim() !== '';
  if (!Array.isArray(content)) return false;
  return content.some(
    (p) =>
      typeof p === 'object' &&
      p !== null &&
      ((p as { type?: unknown }).type === 'text' || (p as { type?: unknown }).type === 'output_text') &&
      typeof (p as { text?: unknown }).text === 'string' &&
      (p as { text: string }).text.trim() !== '',
  );
}

/** The text of a message's content: a string, or its text parts joined by new lines. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const p of content as unknown[])
    if (typeof p === 'object' && p !== null && typeof (p as { text?: unknown }).text === 'string')
      parts.push((p as { text: string }).text);
  return parts.join('\n');
}

/** The id a row gives its trace, else its place in the input. */
export function rowId(row: { id?: unknown }, fallback: string): string {
  return typeof row.id === 'string' && row.id !== '' ? row.id : typeof row.id === 'number' ? String(row.id) : fallback;
}

/**
 * Reads one OpenAI-format conversation (`{ messages: [...] }`): each assistant tool call in its
 * order, each `tool` message ending its call (`ok` unless `error` is non-null), and the final
 * assistant text. A row without `messages` is not a trace.
 */
export function openaiTrace(
  row: unknown,
  at: { file: string; line: number; prefix: (string | number)[]; id: string },
): RowRead {
  if (typeof row !== 'object' || row === null || Array.isArray(row) || !('messages' in row))
    return { type: 'skipped', reason: 'no "messages": not a conversation' };
  const id = rowId(row as { id?: unknown }, at.id);
  const quick = row as { id?: unknown; messages: unknown; tools?: unknown };
  const parsed =
    Array.isArray(quick.messages) &&
    (quick.id === undefined || typeof quick.id === 'string' || typeof quick.id === 'number')
      ? { data: quick as OpenAiTraceRow }
      : parseOr(OpenAiTraceRow, row, at.prefix);
  if ('problem' in parsed) return { type: 'malformed', id, ...parsed.problem };
  const b = new TraceBuilder();
  const { messages } = parsed.data;
  for (let i = 0; i < messages.length && !b.problem; i++) {
    const prefix = [...at.prefix, 'messages', i];
    const m = messages[i];
    const role = typeof m === 'object' && m !== null ? (m as { role?: unknown }).role : undefined;
    const bad: Problem | undefined =
      typeof m !== 'object' || m === null
        ? { path: formatPath(prefix), message: `expected a message object; got ${m === null ? 'null' : typeof m}` }
        : oneOf(role, OPENAI_ROLES, `${formatPath(prefix)}.role`);
    if (bad) return { type: 'malformed', id, ...bad };
    let message = m as OpenAiMessage;
    if (!quickMessage(m)) {
      const msg = parseOr(SCHEMA_BY_ROLE[role as keyof typeof SCHEMA_BY_ROLE], m, prefix);
      if ('problem' in msg) return { type: 'malformed', id, ...msg.problem };
      message = msg.data as OpenAiMessage;
    }
    const place = { line: at.line, path: formatPath(prefix) };
    if (message.role === 'assistant') {
      if (hasText(message.content)) b.text();
      for (const [j, call] of (message.tool_calls ?? []).entries()) {
        const { args, unreadable } = readArguments(call.function.arguments);
        const at = { ...place, path: `${place.path}.tool_calls[${j}]` };
        b.call(call.id, call.function.name, args, at);
        if (unreadable)
          b.unreadableArguments(call.id, call.function.name, args, { ...at, path: `${at.path}.function.arguments` });
      }
    } else if (message.role === 'tool') {
      const ok = message.error === undefined || message.error === null;
      b.result(message.tool_call_id, ok, place, undefined, textOf(message.content));
    } else {
      // The user's words; a developer message is the engineer's, as a system one is.
      b.message(message.role === 'user' ? 'user' : 'system', textOf(message.content));
    }
  }
  if (b.problem) return { type: 'malformed', id, path: b.problem.path, message: b.problem.message };
  return { type: 'trace', trace: b.finish(id, at.file, at.line, declarationsOf(parsed.data.tools)) };
}
