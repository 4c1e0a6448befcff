import { z } from 'zod';
import {
  ClassifyOption,
  describeCall,
  EscalateOption,
  probeCall,
  rememberEscalation,
} from '../harness/adapters/gateCall.js';
import { optionsError, SessionLike } from '../harness/adapters/adapterKit.js';
import { safeParseInput } from '../core/Issue.js';

/** What {@link guardToolApproval} accepts: the same `session`, `classify` and `escalate` as `guardTools`. */
export const GuardToolApprovalOptions = z.strictObject({
  /** The session the calls go through. */
  session: SessionLike,
  /** The classifier `guardTools` uses. */
  classify: ClassifyOption,
  /** Block reasons a person is asked about; any other block is the call's result, without asking. */
  escalate: EscalateOption,
});
export type GuardToolApprovalOptions = z.input<typeof GuardToolApprovalOptions>;

/** What {@link guardToolApproval} says about one approval request. */
export type GuardApprovalStatus =
  'not-applicable' | { type: 'user-approval'; reason: string } | { type: 'denied'; reason: string };

/** An approval request as the AI SDK returns it (a `tool-approval-request` part of `result.content`). */
interface ApprovalQuestion {
  toolCall: { toolCallId: string; toolName: string; input: unknown; providerExecuted?: boolean };
}

/**
 * Why a person is asked to approve a tool call: give it a `tool-approval-request` the AI SDK
 * returned (from `generateText`, `streamText` or `ToolLoopAgent`, with the tools from
 * `guardTools` given the same `escalate`) and it asks what the session would answer now (on a
 * copy: nothing is recorded). A block whose reason is in `escalate` is what the person is asked
 * about (`'user-approval'`, the block's message as the reason to show them); any other block is
 * one no approval lifts (`'denied'`, the block's envelope as the reason); a call the session
 * allows, or one the gate does not judge (provider-executed), is `'not-applicable'` (the tool's
 * own `needsApproval` asked). When the person approves, `guardTools` attests their approval and
 * the machine decides the call again, so it runs once; when they deny, `guardModel` shows the
 * model the block with their reason.
 *
 * @throws {TypeError} naming the bad option (`options.session`, `options.classify`, `options.escalate`).
 * @example
 * const guard = { session, classify, escalate: ['UNVERIFIED_WRITE', 'TARGET_NOT_VALIDATED'] };
 * const result = await generateText({ model, tools: guardTools(tools, guard), messages });
 * const why = guardToolApproval(guard);
 * for (const request of result.content.filter((p) => p.type === 'tool-approval-request')) console.log(why(request));
 * // { type: 'user-approval', reason: '...' }: answer it with a 'tool-approval-response'
 */
export function guardToolApproval(
  options: GuardToolApprovalOptions,
): (request: ApprovalQuestion) => GuardApprovalStatus {
  const parsed = safeParseInput(GuardToolApprovalOptions, options);
  if (!parsed.success) throw optionsError('guardToolApproval', parsed.error);
  const { session, classify, escalate } = parsed.data;
  return ({ toolCall }) => {
    // Only calls guardTools gates: a provider-executed call is not the gate's to judge.
    if (toolCall.providerExecuted === true) return 'not-applicable';
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
