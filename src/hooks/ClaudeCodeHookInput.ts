import * as z from 'zod/mini';

/*
 * What Claude Code writes to a hook command's standard input, one JSON object per event (the
 * Claude Agent SDK hands its in-process hook callbacks the same objects). Pinned from the
 * documented hook reference and the SDK's `HookInput` types: the fields the gate reads are
 * required, every other field is kept as it is (Claude Code adds fields over time).
 */

const base = {
  session_id: z.string().check(z.minLength(1)),
  transcript_path: z.string(),
  cwd: z.string(),
  permission_mode: z.optional(z.string()),
  /** Set when the event comes from a subagent. */
  agent_id: z.optional(z.string()),
};

/** Before a tool runs: the hook may allow, deny or ask. */
export const PreToolUseInput = z.looseObject({
  ...base,
  hook_event_name: z.literal('PreToolUse'),
  tool_name: z.string().check(z.minLength(1)),
  tool_input: z.unknown(),
  tool_use_id: z.string().check(z.minLength(1)),
});
export type PreToolUseInput = z.infer<typeof PreToolUseInput>;

/** After a tool ran and succeeded. */
export const PostToolUseInput = z.looseObject({
  ...base,
  hook_event_name: z.literal('PostToolUse'),
  tool_name: z.string().check(z.minLength(1)),
  tool_input: z.unknown(),
  tool_response: z.unknown(),
  tool_use_id: z.string().check(z.minLength(1)),
});
export type PostToolUseInput = z.infer<typeof PostToolUseInput>;

/** After a tool failed; `is_interrupt` when the person interrupted it. */
export const PostToolUseFailureInput = z.looseObject({
  ...base,
  hook_event_name: z.literal('PostToolUseFailure'),
  tool_name: z.string().check(z.minLength(1)),
  tool_input: z.unknown(),
  tool_use_id: z.string().check(z.minLength(1)),
  error: z.string(),
  is_interrupt: z.optional(z.boolean()),
});
export type PostToolUseFailureInput = z.infer<typeof PostToolUseFailureInput>;

/** A tool call the permission flow refused (it never ran). */
export const PermissionDeniedInput = z.looseObject({
  ...base,
  hook_event_name: z.literal('PermissionDenied'),
  tool_name: z.string().check(z.minLength(1)),
  tool_input: z.unknown(),
  tool_use_id: z.string().check(z.minLength(1)),
  reason: z.optional(z.string()),
});
export type PermissionDeniedInput = z.infer<typeof PermissionDeniedInput>;

/** The agent is about to stop; `stop_hook_active` when a Stop hook already sent it back once. */
export const StopInput = z.looseObject({
  ...base,
  hook_event_name: z.literal('Stop'),
  stop_hook_active: z.boolean(),
});
export type StopInput = z.infer<typeof StopInput>;

/** A session starts (`startup`), resumes, is cleared or compacted. */
export const SessionStartInput = z.looseObject({
  ...base,
  hook_event_name: z.literal('SessionStart'),
  source: z.string(),
});
export type SessionStartInput = z.infer<typeof SessionStartInput>;

/** A session ends. */
export const SessionEndInput = z.looseObject({
  ...base,
  hook_event_name: z.literal('SessionEnd'),
  reason: z.string(),
});
export type SessionEndInput = z.infer<typeof SessionEndInput>;

/** The user sent a prompt: its words validate the targets it names (`session.userMessage`). */
export const UserPromptSubmitInput = z.looseObject({
  ...base,
  hook_event_name: z.literal('UserPromptSubmit'),
  prompt: z.string(),
});
export type UserPromptSubmitInput = z.infer<typeof UserPromptSubmitInput>;

/** The hook events the gate handles. */
export const CLAUDE_CODE_HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionDenied',
  'Stop',
  'SessionStart',
  'SessionEnd',
  'UserPromptSubmit',
] as const;

/** One hook event the gate handles, as Claude Code sends it. */
export const ClaudeCodeHookInput = z.discriminatedUnion('hook_event_name', [
  PreToolUseInput,
  PostToolUseInput,
  PostToolUseFailureInput,
  PermissionDeniedInput,
  StopInput,
  SessionStartInput,
  SessionEndInput,
  UserPromptSubmitInput,
]);
export type ClaudeCodeHookInput = z.infer<typeof ClaudeCodeHookInput>;
