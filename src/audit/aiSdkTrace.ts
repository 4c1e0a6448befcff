import * as z from 'zod/mini';
import { formatPath } from '../core/Issue.js';
import { TraceBuilder, type StepPlace } from './TraceBuilder.js';
import { declarationsOf, oneOf, parseOr } from './parseProblem.js';
import { hasText, OpenAiTraceRow, rowId, textOf } from './openaiTrace.js';
import type { RowRead } from './RowRead.js';

/*
 * The Vercel AI SDK's two message shapes (the `ai` package's `ModelMessage` and `UIMessage`):
 *
 * - ModelMessage (what `generateText` returns in `response.messages`): an assistant message's
 *   `content` holds `tool-call` parts (`toolCallId`, `toolName`, `input`); a `tool` message's
 *   `content` holds `tool-result` parts whose `output.type` is `error-text`, `error-json` or
 *   `execution-denied` when the call failed or was not run.
 * - UIMessage (what `useChat` keeps): an assistant message's `parts` hold one part per tool call,
 *   `type: 'tool-<name>'` (or `dynamic-tool` with `toolName`), its `state` saying how far it got
 *   (`output-available`, `output-error`, `output-denied`, or earlier: not finished); `step-start`
 *   parts separate the model's steps, and the tool parts of one step are one batch.
 */

const nonEmpty = z.string().check(z.minLength(1));

/** A `tool-call` part of an assistant ModelMessage. */
export const AiSdkToolCallPart = z.looseObject({
  type: z.literal('tool-call'),
  toolCallId: nonEmpty,
  toolName: nonEmpty,
  input: z.optional(z.unknown()),
});
export type AiSdkToolCallPart = z.infer<typeof AiSdkToolCallPart>;

/** A `tool-result` part of a `tool` ModelMessage (or of an assistant message, for a provider-executed tool). */
export const AiSdkToolResultPart = z.looseObject({
  type: z.literal('tool-result'),
  toolCallId: nonEmpty,
  toolName: z.optional(z.string()),
  output: z.looseObject({ type: z.string() }),
});
export type AiSdkToolResultPart = z.infer<typeof AiSdkToolResultPart>;

/** A ModelMessage: `content` a string or an array of typed parts. */
export const AiSdkModelMessage = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
});
export type AiSdkModelMessage = z.infer<typeof AiSdkModelMessage>;

/** A tool part of a UIMessage: `tool-<name>` or `dynamic-tool` (which names its tool in `toolName`). */
export const AiSdkToolUIPart = z.looseObject({
  type: z.string(),
  toolCallId: nonEmpty,
  toolName: z.optional(nonEmpty),
  state: z.string(),
  input: z.optional(z.unknown()),
});
export type AiSdkToolUIPart = z.infer<typeof AiSdkToolUIPart>;

/** A UIMessage: `parts` instead of `content`. */
export const AiSdkUIMessage = z.looseObject({
  id: z.optional(z.string()),
  role: z.enum(['system', 'user', 'assistant']),
  parts: z.array(z.looseObject({ type: z.string() })),
});
export type AiSdkUIMessage = z.infer<typeof AiSdkUIMessage>;

/** Output types of a result whose call failed or was not run. */
const FAILED_OUTPUTS = new Set(['error-text', 'error-json', 'execution-denied']);
const FINISHED_STATES = new Map([
  ['output-available', true],
  ['output-error', false],
  ['output-denied', false],
]);

const isUIMessage = (m: unknown) =>
  typeof m === 'object' && m !== null && Array.isArray((m as { parts?: unknown }).parts);

/**
 * Reads one AI SDK conversation (`{ messages: [...] }`, ModelMessages or UIMessages): the same
 * steps as the OpenAI format. A row without `messages` is not a trace.
 */
export function aiSdkTrace(
  row: unknown,
  at: { file: string; line: number; prefix: (string | number)[]; id: string },
): RowRead {
  if (typeof row !== 'object' || row === null || Array.isArray(row) || !('messages' in row))
    return { type: 'skipped', reason: 'no "messages": not a conversation' };
  const parsed = parseOr(OpenAiTraceRow, row, at.prefix);
  const id = rowId(row as { id?: unknown }, at.id);
  if ('problem' in parsed) return { type: 'malformed', id, ...parsed.problem };
  const b = new TraceBuilder();
  const { messages } = parsed.data;
  for (let i = 0; i < messages.length && !b.problem; i++) {
    const prefix = [...at.prefix, 'messages', i];
    const m = messages[i];
    const ui = isUIMessage(m);
    const role = typeof m === 'object' && m !== null ? (m as { role?: unknown }).role : undefined;
    const badRole = oneOf(
      role,
      ui ? ['system', 'user', 'assistant'] : ['system', 'user', 'assistant', 'tool'],
      `${formatPath(prefix)}.role`,
    );
    if (badRole) return { type: 'malformed', id, ...badRole };
    const place: StepPlace = { line: at.line, path: formatPath(prefix) };
    if (ui) {
      const msg = parseOr(AiSdkUIMessage, m, prefix);
      if ('problem' in msg) return { type: 'malformed', id, ...msg.problem };
      if (msg.data.role === 'assistant') {
        const problem = uiParts(b, msg.data.parts, prefix, place);
        if (problem) return { type: 'malformed', id, ...problem };
      } else if (msg.data.role === 'user' || msg.data.role === 'system')
        b.message(msg.data.role, textOf(msg.data.parts));
      continue;
    }
    const msg = parseOr(AiSdkModelMessage, m, prefix);
    if ('problem' in msg) return { type: 'malformed', id, ...msg.problem };
    const { role: r, content } = msg.data;
    if (r === 'user' || r === 'system') b.message(r, textOf(content));
    if (r !== 'assistant' && r !== 'tool') continue;
    if (r === 'assistant' && hasText(content)) b.text();
    if (typeof content === 'string') continue;
    for (const [j, part] of content.entries()) {
      const partPlace = { ...place, path: `${place.path}.content[${j}]` };
      if (part.type === 'tool-call' && r === 'assistant') {
        const call = parseOr(AiSdkToolCallPart, part, [...prefix, 'content', j]);
        if ('problem' in call) return { type: 'malformed', id, ...call.problem };
        b.call(
          call.data.toolCallId,
          call.data.toolName,
          call.data.input ?? (part as { args?: unknown }).args,
          partPlace,
        );
      } else if (part.type === 'tool-result') {
        const result = parseOr(AiSdkToolResultPart, part, [...prefix, 'content', j]);
        if ('problem' in result) return { type: 'malformed', id, ...result.problem };
        const { output } = result.data;
        b.result(result.data.toolCallId, !FAILED_OUTPUTS.has(output.type), partPlace, undefined, output.value);
      }
    }
  }
  if (b.problem) return { type: 'malformed', id, path: b.problem.path, message: b.problem.message };
  return { type: 'trace', trace: b.finish(id, at.file, at.line, declarationsOf(parsed.data.tools)) };
}

/** One assistant UIMessage's parts, step by step: each step's text, its calls as one batch, then their results. */
function uiParts(
  b: TraceBuilder,
  parts: { type: string }[],
  prefix: (string | number)[],
  place: StepPlace,
): { path: string; message: string } | undefined {
  let step: { call: AiSdkToolUIPart; j: number }[] = [];
  let textAfterTools = false;
  const flush = () => {
    for (const { call, j } of step) {
      const p = { ...place, path: `${place.path}.parts[${j}]` };
      b.call(call.toolCallId, call.toolName ?? call.type.slice('tool-'.length), call.input, p);
    }
    for (const { call, j } of step) {
      const ok = FINISHED_STATES.get(call.state);
      if (ok !== undefined)
        b.result(call.toolCallId, ok, { ...place, path: `${place.path}.parts[${j}]` }, undefined, call.output);
    }
    if (textAfterTools) b.text();
    step = [];
    textAfterTools = false;
  };
  for (const [j, part] of parts.entries()) {
    if (part.type === 'step-start') flush();
    else if (part.type === 'text') {
      if (!hasText([part])) continue;
      if (step.length === 0) b.text();
      else textAfterTools = true;
    } else if (part.type === 'dynamic-tool' || (part.type.startsWith('tool-') && part.type.length > 5)) {
      const call = parseOr(AiSdkToolUIPart, part, [...prefix, 'parts', j]);
      if ('problem' in call) return call.problem;
      if (part.type === 'dynamic-tool' && call.data.toolName === undefined)
        return {
          path: formatPath([...prefix, 'parts', j, 'toolName']),
          message: 'a dynamic-tool part needs its toolName; it is missing',
        };
      step.push({ call: call.data, j });
    }
  }
  flush();
  return undefined;
}
