import * as z from 'zod/mini';
import { textOf } from './openaiTrace.js';
import { TraceBuilder } from './TraceBuilder.js';
import { oneOf, parseOr } from './parseProblem.js';
import type { RowRead } from './RowRead.js';

/*
 * Claude Code transcripts (`~/.claude/projects/<project>/<session>.jsonl`): one JSON object a line,
 * its `type` saying what it is. `user` and `assistant` lines carry an Anthropic API `message`
 * (`role`, `content`: a string or content blocks); an assistant's `tool_use` blocks (`id`, `name`,
 * `input`) are its tool calls (one block a line when a response holds several: a batch), and a
 * user line's `tool_result` blocks (`tool_use_id`, `is_error`) answer them. Other types
 * (`summary`, `system`, `file-history-snapshot`, `queue-operation`, ...) carry no calls and are
 * passed over, as are a subagent's lines (`isSidechain: true`). The lines of one `sessionId` are
 * one trace.
 */

const nonEmpty = z.string().check(z.minLength(1));

/** A `tool_use` content block: a tool call. */
export const ClaudeCodeToolUse = z.looseObject({
  type: z.literal('tool_use'),
  id: nonEmpty,
  name: nonEmpty,
  input: z.optional(z.unknown()),
});
export type ClaudeCodeToolUse = z.infer<typeof ClaudeCodeToolUse>;

/** A `tool_result` content block: `is_error: true` when the call failed. */
export const ClaudeCodeToolResult = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: nonEmpty,
  is_error: z.optional(z.nullable(z.boolean())),
});
export type ClaudeCodeToolResult = z.infer<typeof ClaudeCodeToolResult>;

/** One transcript line. Only `user` and `assistant` lines need a `message`. */
export const ClaudeCodeLine = z.looseObject({
  type: nonEmpty,
  sessionId: z.optional(z.string()),
  uuid: z.optional(z.string()),
  timestamp: z.optional(z.string()),
  isSidechain: z.optional(z.boolean()),
  /** The folder Claude Code ran in: relative file paths are taken from it. */
  cwd: z.optional(z.string()),
  message: z.optional(
    z.looseObject({
      role: z.string(),
      content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
    }),
  ),
});
export type ClaudeCodeLine = z.infer<typeof ClaudeCodeLine>;

/** Whether a JSON value looks like a Claude Code transcript line. */
export function isClaudeCodeLine(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.type === 'string' &&
    !('messages' in o) &&
    ('sessionId' in o || 'uuid' in o || 'leafUuid' in o || 'message' in o)
  );
}

interface Open {
  builder: TraceBuilder;
  line: number;
  messages: number;
  cwd?: string;
}

/** Whether a user line's tool result says the call created its file (`toolUseResult.type` of a `Write`). */
function createdAFile(line: Record<string, unknown>): boolean {
  const r = line.toolUseResult;
  return typeof r === 'object' && r !== null && (r as { type?: unknown }).type === 'create';
}

/**
 * Collects transcript lines into traces, one per `sessionId` (the file's name when a line has
 * none). Traces are finished at the end of the file (a transcript is one file).
 */
export function createClaudeCodeCollector(file: string, fallbackId: string) {
  const open = new Map<string, Open>();
  return {
    line(value: unknown, line: number): RowRead | undefined {
      const parsed = parseOr(ClaudeCodeLine, value, []);
      const session =
        typeof value === 'object' && value !== null && typeof (value as { sessionId?: unknown }).sessionId === 'string'
          ? (value as { sessionId: string }).sessionId || fallbackId
          : fallbackId;
      let entry = open.get(session);
      if (!entry) open.set(session, (entry = { builder: new TraceBuilder(), line, messages: 0 }));
      const b = entry.builder;
      if ('problem' in parsed) {
        b.fail({ line, ...parsed.problem });
        return undefined;
      }
      const l = parsed.data;
      if ((l.type !== 'user' && l.type !== 'assistant') || l.isSidechain === true) return undefined;
      if (!l.message) {
        b.fail({ line, path: 'message', message: `a ${l.type} line needs its "message"; it is missing` });
        return undefined;
      }
      entry.messages++;
      // Each line's own folder (a session may `cd` or resume elsewhere): its calls and results are read from it.
      const cwd = l.cwd !== undefined && l.cwd !== '' ? l.cwd : undefined;
      if (entry.cwd === undefined && cwd !== undefined) entry.cwd = cwd;
      const bad = oneOf(l.message.role, ['user', 'assistant'], 'message.role');
      if (bad) {
        b.fail({ line, ...bad });
        return undefined;
      }
      const t = l.timestamp === undefined ? undefined : Date.parse(l.timestamp);
      const at = t !== undefined && Number.isFinite(t) ? t : undefined;
      const { content } = l.message;
      if (typeof content === 'string') {
        if (l.message.role === 'assistant' && content.trim() !== '') b.text(at);
        else if (l.message.role === 'user') b.message('user', content, at);
        return undefined;
      }
      for (const [j, block] of content.entries()) {
        const path = `message.content[${j}]`;
        if (block.type === 'text' && l.message.role === 'assistant') {
          if (typeof block.text === 'string' && block.text.trim() !== '') b.text(at);
        } else if (block.type === 'text' && l.message.role === 'user') {
          if (typeof block.text === 'string') b.message('user', block.text, at);
        } else if (block.type === 'tool_use') {
          const use = parseOr(ClaudeCodeToolUse, block, ['message', 'content', j]);
          if ('problem' in use) b.fail({ line, ...use.problem });
          else b.call(use.data.id, use.data.name, use.data.input, { line, path }, at, cwd);
        } else if (block.type === 'tool_result') {
          const result = parseOr(ClaudeCodeToolResult, block, ['message', 'content', j]);
          if ('problem' in result) b.fail({ line, ...result.problem });
          else {
            const ok = result.data.is_error !== true;
            b.result(result.data.tool_use_id, ok, { line, path }, at, textOf(block.content), cwd);
            if (createdAFile(l)) b.createdFile(result.data.tool_use_id);
          }
        }
      }
      return undefined;
    },
    end(): RowRead[] {
      const out: RowRead[] = [];
      for (const [id, { builder, line, messages, cwd }] of open) {
        if (builder.problem) out.push({ type: 'malformed', id, ...builder.problem });
        else if (messages === 0)
          out.push({ type: 'skipped', line, reason: `session ${id} has no user or assistant line` });
        else out.push({ type: 'trace', trace: builder.finish(id, file, line, undefined, cwd) });
      }
      open.clear();
      return out;
    },
  };
}
