import * as z from 'zod/mini';

/*
 * What Gemini CLI writes to a hook command's standard input, one JSON object per event, as its
 * hooks reference documents them: session_id, cwd, hook_event_name, and per event tool_name,
 * tool_input, tool_response (BeforeTool, AfterTool), prompt (BeforeAgent), stop_hook_active
 * (AfterAgent). The fields the gate reads are required; every other field is kept.
 */

const base = {
  session_id: z.string().check(z.minLength(1)),
  cwd: z.string().check(z.minLength(1)),
  transcript_path: z.optional(z.nullable(z.string())),
  timestamp: z.optional(z.string()),
};

/** Before a tool runs (`read_file`, `replace`, `run_shell_command`, `mcp__<server>__<tool>`...): the hook may deny it. */
const GeminiBeforeToolInput = z.looseObject({
  ...base,
  hook_event_name: z.literal('BeforeTool'),
  tool_name: z.string().check(z.minLength(1)),
  tool_input: z.unknown(),
});

/** After a tool ran; `tool_response.error` when it failed. */
const GeminiAfterToolInput = z.looseObject({
  ...base,
  hook_event_name: z.literal('AfterTool'),
  tool_name: z.string().check(z.minLength(1)),
  tool_input: z.unknown(),
  tool_response: z.unknown(),
});

/** The user submitted a prompt, before the agent plans. */
const GeminiBeforeAgentInput = z.looseObject({
  ...base,
  hook_event_name: z.literal('BeforeAgent'),
  prompt: z.string(),
});

/** The agent produced its final response for the turn; `stop_hook_active` on a retry a hook asked for. */
const GeminiAfterAgentInput = z.looseObject({
  ...base,
  hook_event_name: z.literal('AfterAgent'),
  stop_hook_active: z.optional(z.boolean()),
});

/** A session starts, resumes or is cleared. */
const GeminiSessionStartInput = z.looseObject({ ...base, hook_event_name: z.literal('SessionStart') });

/** A session ends (Gemini CLI does not wait for this hook). */
const GeminiSessionEndInput = z.looseObject({ ...base, hook_event_name: z.literal('SessionEnd') });

/** The Gemini CLI hook events the gate handles. */
export const GEMINI_HOOK_EVENTS = [
  'BeforeTool',
  'AfterTool',
  'BeforeAgent',
  'AfterAgent',
  'SessionStart',
  'SessionEnd',
] as const;

/** One Gemini CLI hook event the gate handles. */
export const GeminiHookInput = z.discriminatedUnion('hook_event_name', [
  GeminiBeforeToolInput,
  GeminiAfterToolInput,
  GeminiBeforeAgentInput,
  GeminiAfterAgentInput,
  GeminiSessionStartInput,
  GeminiSessionEndInput,
]);
export type GeminiHookInput = z.infer<typeof GeminiHookInput>;

/**
 * What the gate answers Gemini CLI on standard output (exit code 0, JSON only). `decision:
 * "deny"` on BeforeTool refuses the tool (the reason reaches the agent as the tool's error); on
 * AfterAgent it rejects the response and sends the reason as the next prompt. `{}` says nothing.
 */
export const GeminiHookOutput = z.union([
  z.strictObject({ decision: z.literal('deny'), reason: z.string().check(z.minLength(1)) }),
  z.strictObject({ systemMessage: z.string() }),
  z.strictObject({}),
]);
export type GeminiHookOutput = z.infer<typeof GeminiHookOutput>;
