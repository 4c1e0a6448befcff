import * as z from 'zod/mini';

/*
 * What a hook answers on standard output (exit code 0), as Claude Code documents it. The gate
 * answers only these shapes; nothing on standard output means "no decision" (the call goes on
 * through Claude Code's own permission flow).
 */

/** `PreToolUse`: `deny` (the reason reaches the model), `ask` (the reason is shown to the person). */
export const PreToolUseOutput = z.strictObject({
  hookSpecificOutput: z.strictObject({
    hookEventName: z.literal('PreToolUse'),
    permissionDecision: z.enum(['allow', 'deny', 'ask']),
    permissionDecisionReason: z.string(),
  }),
});
export type PreToolUseOutput = z.infer<typeof PreToolUseOutput>;

/** `Stop`: `decision: "block"` sends the agent back to work with the reason as its next instruction. */
export const StopBlockOutput = z.strictObject({
  decision: z.literal('block'),
  reason: z.string(),
});
export type StopBlockOutput = z.infer<typeof StopBlockOutput>;

/** A message for the person only (the agent is not told), e.g. when a stop is let through unverified. */
export const SystemMessageOutput = z.strictObject({
  systemMessage: z.string(),
});
export type SystemMessageOutput = z.infer<typeof SystemMessageOutput>;

/** Every answer the gate gives a Claude Code hook event. */
export const ClaudeCodeHookOutput = z.union([PreToolUseOutput, StopBlockOutput, SystemMessageOutput]);
export type ClaudeCodeHookOutput = z.infer<typeof ClaudeCodeHookOutput>;
