import * as z from 'zod/mini';

/*
 * What Cursor writes to a hook command's standard input, one JSON object per event, for the
 * agent's generic tool hooks and its lifecycle (Cursor's hooks documentation): conversation_id
 * names the session, workspace_roots the project, and per event tool_name, tool_input,
 * tool_use_id (preToolUse, postToolUse, postToolUseFailure), prompt (beforeSubmitPrompt),
 * status and loop_count (stop). The fields the gate reads are required; others are kept.
 */

const base = {
  conversation_id: z.string().check(z.minLength(1)),
  generation_id: z.optional(z.string()),
  workspace_roots: z.array(z.string()).check(z.minLength(1)),
  cwd: z.optional(z.string()),
  model: z.optional(z.string()),
  cursor_version: z.optional(z.string()),
  transcript_path: z.optional(z.nullable(z.string())),
};

const tool = {
  tool_name: z.string().check(z.minLength(1)),
  tool_input: z.unknown(),
  tool_use_id: z.optional(z.string().check(z.minLength(1))),
};

/** Before any tool runs (`Shell`, `Read`, `Write`, `StrReplace`, `Delete`, `Grep`, `Task`, `MCP:...`): the hook may deny it. */
const CursorPreToolUseInput = z.looseObject({ ...base, ...tool, hook_event_name: z.literal('preToolUse') });

/** After a tool ran and succeeded. */
const CursorPostToolUseInput = z.looseObject({ ...base, ...tool, hook_event_name: z.literal('postToolUse') });

/** After a tool failed, timed out, was refused or interrupted. */
const CursorPostToolUseFailureInput = z.looseObject({
  ...base,
  ...tool,
  hook_event_name: z.literal('postToolUseFailure'),
  failure_type: z.optional(z.string()),
  is_interrupt: z.optional(z.boolean()),
});

/** The user submitted a prompt. */
const CursorBeforeSubmitPromptInput = z.looseObject({
  ...base,
  hook_event_name: z.literal('beforeSubmitPrompt'),
  prompt: z.string(),
});

/** The agent loop ended: `status` (`completed`, `aborted`, `error`), `loop_count` follow-ups so far. */
const CursorStopInput = z.looseObject({
  ...base,
  hook_event_name: z.literal('stop'),
  status: z.optional(z.string()),
  loop_count: z.optional(z.number()),
});

/** A session starts. */
const CursorSessionStartInput = z.looseObject({ ...base, hook_event_name: z.literal('sessionStart') });

/** A session ends. */
const CursorSessionEndInput = z.looseObject({ ...base, hook_event_name: z.literal('sessionEnd') });

/** The Cursor hook events the gate handles. */
export const CURSOR_HOOK_EVENTS = [
  'preToolUse',
  'postToolUse',
  'postToolUseFailure',
  'beforeSubmitPrompt',
  'stop',
  'sessionStart',
  'sessionEnd',
] as const;

/** One Cursor hook event the gate handles. */
export const CursorHookInput = z.discriminatedUnion('hook_event_name', [
  CursorPreToolUseInput,
  CursorPostToolUseInput,
  CursorPostToolUseFailureInput,
  CursorBeforeSubmitPromptInput,
  CursorStopInput,
  CursorSessionStartInput,
  CursorSessionEndInput,
]);
export type CursorHookInput = z.infer<typeof CursorHookInput>;

/**
 * What the gate answers Cursor on standard output (exit code 0). `permission: "deny"` refuses a
 * tool (`agent_message` reaches the model, `user_message` the person); `followup_message` on stop
 * is sent as the next user message; `continue: true` lets a prompt through; `{}` says nothing.
 */
export const CursorHookOutput = z.union([
  z.strictObject({
    permission: z.literal('deny'),
    agent_message: z.string().check(z.minLength(1)),
    user_message: z.string(),
  }),
  z.strictObject({ followup_message: z.string().check(z.minLength(1)) }),
  z.strictObject({ continue: z.literal(true) }),
  z.strictObject({}),
]);
export type CursorHookOutput = z.infer<typeof CursorHookOutput>;
