import * as z from 'zod/mini';

/*
 * What Codex CLI writes to a hook command's standard input, one JSON object per event, as its
 * hook reference and generated schemas document them (Claude Code's field names: session_id,
 * cwd, hook_event_name, tool_name, tool_input, tool_use_id). The fields the gate reads are
 * required; every other field is kept (Codex adds fields over time).
 */

const base = {
  session_id: z.string().check(z.minLength(1)),
  cwd: z.string().check(z.minLength(1)),
  transcript_path: z.optional(z.nullable(z.string())),
  model: z.optional(z.string()),
  permission_mode: z.optional(z.string()),
  turn_id: z.optional(z.string()),
};

/** Before a tool runs (`Bash`, `apply_patch`, `mcp__<server>__<tool>`): the hook may deny it. */
const CodexPreToolUseInput = z.looseObject({
  ...base,
  hook_event_name: z.literal('PreToolUse'),
  tool_name: z.string().check(z.minLength(1)),
  tool_input: z.unknown(),
  tool_use_id: z.string().check(z.minLength(1)),
});

/** After a tool ran. Codex sends no event for a tool call that failed. */
const CodexPostToolUseInput = z.looseObject({
  ...base,
  hook_event_name: z.literal('PostToolUse'),
  tool_name: z.string().check(z.minLength(1)),
  tool_input: z.unknown(),
  tool_response: z.unknown(),
  tool_use_id: z.string().check(z.minLength(1)),
});

/** The turn is about to end; `stop_hook_active` when a Stop hook already sent it back once. */
const CodexStopInput = z.looseObject({
  ...base,
  hook_event_name: z.literal('Stop'),
  stop_hook_active: z.boolean(),
});

/** The user sent a prompt. */
const CodexUserPromptSubmitInput = z.looseObject({
  ...base,
  hook_event_name: z.literal('UserPromptSubmit'),
  prompt: z.string(),
});

/** A session (thread) starts or resumes. */
const CodexSessionStartInput = z.looseObject({ ...base, hook_event_name: z.literal('SessionStart') });

/** A session ends. */
const CodexSessionEndInput = z.looseObject({ ...base, hook_event_name: z.literal('SessionEnd') });

/** The Codex CLI hook events the gate handles. */
export const CODEX_HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'Stop',
  'UserPromptSubmit',
  'SessionStart',
  'SessionEnd',
] as const;

/** One Codex CLI hook event the gate handles. */
export const CodexHookInput = z.discriminatedUnion('hook_event_name', [
  CodexPreToolUseInput,
  CodexPostToolUseInput,
  CodexStopInput,
  CodexUserPromptSubmitInput,
  CodexSessionStartInput,
  CodexSessionEndInput,
]);
export type CodexHookInput = z.infer<typeof CodexHookInput>;

/**
 * What the gate answers Codex CLI on standard output (exit code 0). Codex accepts `deny` only
 * (an `ask` or a bare `allow` is an invalid answer there, which lets the call go), and a
 * `decision: "block"` on Stop continues the turn with the reason as the next prompt.
 */
export const CodexHookOutput = z.union([
  z.strictObject({
    hookSpecificOutput: z.strictObject({
      hookEventName: z.literal('PreToolUse'),
      permissionDecision: z.literal('deny'),
      permissionDecisionReason: z.string().check(z.minLength(1)),
    }),
  }),
  z.strictObject({ decision: z.literal('block'), reason: z.string().check(z.minLength(1)) }),
  z.strictObject({ systemMessage: z.string() }),
]);
export type CodexHookOutput = z.infer<typeof CodexHookOutput>;
