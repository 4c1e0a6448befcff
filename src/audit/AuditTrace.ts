import * as z from 'zod/mini';
import { ToolDeclaration } from '../classify/index.js';
import { TraceIssue } from './TraceIssue.js';

/*
 * A trace as the audit runs it, whatever format it came in: the tool calls an
 * agent made and their results, in the order they happened, and whether the
 * agent ended on a final answer. Every reader (OpenAI chat messages, the
 * Vercel AI SDK's messages, Claude Code transcripts, OpenTelemetry spans)
 * turns its input into this.
 */

/** Epoch milliseconds of a step, when the trace says (a transcript's timestamp, a span's start). */
const at = z.optional(z.number());
/**
 * The folder the agent was in at this step, when the trace says (a Claude Code transcript line's
 * `cwd`, which may change within a session): its relative paths are taken from it, as the hook
 * takes them from each event's own `cwd`. Without it, the trace's `cwd`.
 */
const cwd = z.optional(z.string());

/** One step of a trace. */
export const TraceStep = z.discriminatedUnion('type', [
  /** The agent called a tool (one of a batch when several come in one assistant message). */
  z.object({
    type: z.literal('call'),
    id: z.string().check(z.minLength(1)),
    tool: z.string().check(z.minLength(1)),
    args: z.unknown(),
    at,
    cwd,
    /** The call created the file it writes (a Claude Code `Write` whose result says `create`). */
    newFile: z.optional(z.literal(true)),
  }),
  /**
   * A call's result came back: `ok` false when the trace marks it failed; `value` is what the tool
   * returned (a JSON value, or its text), read by the rules' `discovers` fields.
   */
  z.object({
    type: z.literal('result'),
    id: z.string().check(z.minLength(1)),
    ok: z.boolean(),
    value: z.optional(z.unknown()),
    at,
    cwd,
  }),
  /** What the user (or the engineer's system prompt) said: its values are the user's words. */
  z.object({ type: z.literal('message'), source: z.enum(['user', 'system']), text: z.string(), at }),
  /** The agent's final answer: text after its last tool result. */
  z.object({ type: z.literal('final'), at }),
]);
export type TraceStep = z.infer<typeof TraceStep>;

/** Where a trace (or a problem) is in its input: the file and the 1-based line. */
export const TraceSource = z.object({ file: z.string(), line: z.number() });
export type TraceSource = z.infer<typeof TraceSource>;

/** One conversation, ready to audit. */
export const AuditTrace = z.object({
  /** The trace's own id when it has one (a row's `id`, a transcript's `sessionId`, a span's trace id), else `file:line`. */
  id: z.string().check(z.minLength(1)),
  source: TraceSource,
  steps: z.array(TraceStep),
  /** Tools the trace declares (MCP-style `name` with `annotations` or a `kind`), for classification. */
  tools: z.optional(z.array(ToolDeclaration)),
  /** The folder the agent ran in (a Claude Code transcript's first `cwd`): relative paths of a step with no `cwd` of its own are taken from it. */
  cwd: z.optional(z.string()),
  /**
   * Calls whose arguments are not JSON (an OpenAI `arguments` string, a span's
   * `gen_ai.tool.call.arguments`), each with its file, line and field: the trace is audited, such a call
   * judged as the classifier judges arguments it cannot read (as missing ones), and the report lists them.
   */
  unreadableArguments: z.optional(z.array(TraceIssue)),
});
export type AuditTrace = z.infer<typeof AuditTrace>;
