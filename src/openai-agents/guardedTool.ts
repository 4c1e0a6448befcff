import {
  tool,
  type FunctionTool,
  type ToolInputParameters,
  type ToolOptions,
  type ToolOutputSchema,
  type UnknownContext,
} from '@openai/agents';
import { z } from 'zod';
import {
  beginGated,
  ClassifyOption,
  describeCall,
  EscalateOption,
  forgetEscalation,
  probeCall,
  rememberEscalation,
  rethrowable,
  settleGated,
} from '../harness/adapters/gateCall.js';
import { optionsError, SessionLike } from '../harness/adapters/adapterKit.js';
import { safeParseInput } from '../core/Issue.js';

/** Who an attestation from an approved run interruption names as its author. */
const AGENTS_APPROVER = 'openai-agents:approval';

/** What {@link guardedTool} takes besides the tool's own options. */
export const GuardOptions = z.strictObject({
  /** The session every call goes through. */
  session: SessionLike,
  /**
   * `(toolName, input) => ToolKind` or a `CallDescriptor` (`{ kind, targets?, stateOnly?, trust?, selfVerifying? }`);
   * a classifier from `createClassifier` fits, and its `describe` is used (targets, trust, state-only, self-verifying).
   */
  classify: ClassifyOption,
  /**
   * Block reasons a person is asked about: such a call needs approval (a run interruption); approving it
   * attests the missing evidence and the machine decides the call again; rejecting it shows the model the block.
   */
  escalate: EscalateOption,
});
export type GuardOptions = z.input<typeof GuardOptions>;

type Execute = (
  input: unknown,
  context?: unknown,
  details?: { toolCall?: { callId?: string }; signal?: AbortSignal },
) => unknown;
type NeedsApproval = (runContext: unknown, input: unknown, callId?: string) => Promise<boolean>;

/**
 * `tool(options)` from `@openai/agents`, gated: the same options, the same
 * `FunctionTool`, with `execute` run through the session's call-lifecycle API.
 * The call begins (with the model's `callId`, and the targets, trust and
 * state-only flag a describing classifier gives) after the SDK has parsed the
 * input, asked for approval (`needsApproval`) and run the tool's input
 * guardrails, and ends when `execute` settles. A blocked call never runs: its
 * output is the `FSMBlockedError` envelope, so the model reads what is
 * missing. A throw is rethrown to the SDK (whose `errorFunction` words it for
 * the model, as without the gate) and ends the call by the one settle rule: an
 * ordinary `Error` is a failure; a timeout, an abort, a cut connection or
 * anything unclassifiable is an unknown outcome. Only a tool its classifier
 * declares self-verifying can verify its own write, never with evidence found
 * in the call's own arguments. After a read that verifies the last write, the
 * verification is completed, as the tool loop does. With `escalate`, a call the
 * session would block for one of those reasons needs approval: approving the
 * interruption (`state.approve`) attests the evidence and the machine decides
 * the call again; rejecting it shows the model the block (with `guardModel`).
 *
 * @throws {TypeError} naming the bad option (`guard.session`, `guard.classify`, `guard.escalate`).
 * @example
 * const guard = { session: createSafetySession(), classify: createClassifier(rules), escalate: ['UNVERIFIED_WRITE'] };
 * const restartVm = guardedTool(
 *   { name: 'restart_vm', description: 'Restarts a VM.', parameters: z.object({ name: z.string() }), execute: ({ name }) => api.restart(name) },
 *   guard,
 * );
 */
export function guardedTool<
  TParameters extends ToolInputParameters = undefined,
  Context = UnknownContext,
  Result = string,
  TOutputSchema extends ToolOutputSchema | undefined = undefined,
>(options: ToolOptions<TParameters, Context, TOutputSchema>, guard: GuardOptions) {
  const parsed = safeParseInput(GuardOptions, guard);
  if (!parsed.success) throw optionsError('guardedTool', parsed.error, 'guard');
  const { session, classify, escalate } = parsed.data;
  if (typeof options !== 'object' || options === null || typeof options.execute !== 'function') {
    throw new TypeError('guardedTool: options.execute: expected a function');
  }
  const original = options.execute as Execute;
  const name = options.name ?? original.name;
  let anonymous = 0;
  const execute: Execute = async (input, context, details) => {
    const id = details?.toolCall?.callId ?? `${name}-${++anonymous}-${globalThis.crypto.randomUUID()}`;
    const call = describeCall(classify, id, name, input);
    forgetEscalation(session, id); // it runs, so nobody rejected it
    const blocked = beginGated(session, call, escalate, () => approvalOf(context, name, id));
    if (blocked) return blocked.toJSON(); // the tool never runs; the model reads what is missing
    let value: unknown;
    try {
      value = await original(input, context, details);
    } catch (error) {
      settleGated(session, call, { ok: false, error }, details?.signal);
      throw rethrowable(error, name);
    }
    settleGated(session, call, { ok: true, value });
    return value;
  };
  const gated: Record<string, unknown> = { ...options, execute };
  if (escalate.length > 0) {
    const own = options.needsApproval as boolean | NeedsApproval | undefined;
    const needsApproval: NeedsApproval = async (runContext, input, callId) => {
      if (own === true || (typeof own === 'function' && (await own(runContext, input, callId)) === true)) return true;
      if (callId === undefined) return false; // without the call's id its approval could not be told apart
      const blocked = probeCall(session, describeCall(classify, callId, name, input).start);
      if (!blocked || !(escalate as readonly string[]).includes(blocked.reasonCode)) return false;
      rememberEscalation(session, callId, blocked);
      return true;
    };
    gated.needsApproval = needsApproval;
  }
  return tool<TParameters, Context, Result, TOutputSchema>(
    gated as unknown as ToolOptions<TParameters, Context, TOutputSchema>,
  ) as FunctionTool<Context, TParameters, Result>;
}

/** A person's approval of this call in the run's context (`state.approve`), as an attestation. */
function approvalOf(context: unknown, toolName: string, callId: string): { by: string } | null {
  try {
    const isToolApproved = (context as { isToolApproved?: unknown } | undefined)?.isToolApproved;
    if (typeof isToolApproved !== 'function') return null;
    return isToolApproved.call(context, { toolName, callId }) === true ? { by: AGENTS_APPROVER } : null;
  } catch {
    return null;
  }
}
