import { z } from 'zod';
import { ClassifyOption, describeCall, EscalateOption, probeCall, rememberEscalation } from './gateCall.js';
import { optionsError, SessionLike } from './shared.js';

/** What {@link guardToolApproval} accepts: the same `session`, `classify` and `escalate` as `guardTools`. */
export const GuardToolApprovalOptions = z.strictObject({
  /** The session the calls go through. */
  session: SessionLike,
  /** The classifier `guardTools` uses. */
  classify: ClassifyOption,
  /** Block reasons a person is asked about; every other block is denied without asking. */
  escalate: EscalateOption,
});
export type GuardToolApprovalOptions = z.input<typeof GuardToolApprovalOptions>;

/** The AI SDK's approval status (`ToolApprovalStatus`), as this function answers it. */
export type GuardApprovalStatus =
  'not-applicable' | { type: 'user-approval'; reason: string } | { type: 'denied'; reason: string };

/** The tool call the AI SDK hands a `toolApproval` function. */
interface ApprovalQuestion {
  toolCall: { toolCallId: string; toolName: string; input: unknown; providerExecuted?: boolean };
  tools?: Record<string, unknown>;
}

/**
 * A `toolApproval` function for `generateText`, `streamText` and `ToolLoopAgent`
 * that asks a person for the evidence a block says is missing. For each tool
 * call it asks what the session would answer now (on a copy: nothing is
 * recorded): an allowed call needs no approval (`'not-applicable'`); a block
 * whose reason is in `escalate` asks a person (`'user-approval'`, the block's
 * message as the request's reason); any other block is denied without asking,
 * with the block's envelope as the reason the model reads. When the person
 * approves, `guardTools` (given the same `escalate`) attests their approval
 * and the machine decides the call again, so it runs once; when they deny,
 * `guardModel` shows the model the block with their reason.
 *
 * @throws {TypeError} naming the bad option (`options.session`, `options.classify`, `options.escalate`).
 * @example
 * const guard = { session, classify, escalate: ['UNVERIFIED_WRITE', 'TARGET_NOT_VALIDATED'] };
 * const result = await generateText({ model, tools: guardTools(tools, guard), toolApproval: guardToolApproval(guard), messages });
 * // result.content holds a 'tool-approval-request' for an escalated block; answer it with a 'tool-approval-response'
 */
export function guardToolApproval(
  options: GuardToolApprovalOptions,
): (question: ApprovalQuestion) => GuardApprovalStatus {
  const parsed = GuardToolApprovalOptions.safeParse(options);
  if (!parsed.success) throw optionsError('guardToolApproval', parsed.error);
  const { session, classify, escalate } = parsed.data;
  return ({ toolCall, tools }) => {
    // Only calls guardTools gates: tools it left alone (provider-executed, no execute) are not its to judge.
    const tool = tools?.[toolCall.toolName] as { execute?: unknown; isProviderExecuted?: unknown } | undefined;
    if (
      toolCall.providerExecuted === true ||
      (tools && (typeof tool?.execute !== 'function' || tool.isProviderExecuted === true))
    )
      return 'not-applicable';
    const call = describeCall(classify, toolCall.toolCallId, toolCall.toolName, toolCall.input);
    const blocked = probeCall(session, call.start);
    if (!blocked) return 'not-applicable';
    if ((escalate as readonly string[]).includes(blocked.reasonCode)) {
      rememberEscalation(session, toolCall.toolCallId, blocked);
      return { type: 'user-approval', reason: blocked.message };
    }
    return { type: 'denied', reason: JSON.stringify(blocked.toJSON()) };
  };
}
