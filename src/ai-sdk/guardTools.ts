import { z } from 'zod';
import type { SafetySession } from '../index.js';
import { approvalIn } from './approvalIn.js';
import { escalationNeeded, type ApprovalContext } from './escalationNeeded.js';
import {
  beginGated,
  ClassifyOption,
  describeCall,
  EscalateOption,
  forgetEscalation,
  rethrowable,
  settleGated,
  type GatedCall,
} from '../harness/adapters/gateCall.js';
import { tellUserWords } from '../harness/adapters/tellUserWords.js';
import { isEnvelope, optionsError, SessionLike } from '../harness/adapters/adapterKit.js';
import { safeParseInput } from '../core/Issue.js';

/** What {@link guardTools} accepts. */
export const GuardToolsOptions = z.strictObject({
  /** The session every call goes through. */
  session: SessionLike,
  /**
   * `(toolName, input) => ToolKind` or a `CallDescriptor` (`{ kind, targets?, stateOnly?, trust?, selfVerifying? }`);
   * a classifier from `createClassifier` fits, and its `describe` is used (targets, trust, state-only, self-verifying).
   */
  classify: ClassifyOption,
  /**
   * Block reasons a person is asked about: each gated tool's `needsApproval` asks for a call the session
   * would block for one of them (and still for every call the tool itself asks about); when a person
   * approved the call, their approval is attested and the machine decides the call again. A person who
   * denies it shows the model the block (with {@link guardModel}); {@link guardToolApproval} tells the
   * person why they are asked.
   */
  escalate: EscalateOption,
});
export type GuardToolsOptions = z.input<typeof GuardToolsOptions>;

type AnyExecute = (
  input: unknown,
  options: { toolCallId: string; abortSignal?: AbortSignal; messages?: readonly unknown[] },
) => unknown;
type NeedsApproval = (input: unknown, context: ApprovalContext) => unknown;
type ToModelOutput = (options: { toolCallId: string; input: unknown; output: unknown }) => unknown;

const isAsyncIterable = (v: unknown): v is AsyncIterable<unknown> =>
  typeof v === 'object' && v !== null && typeof (v as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function';

/**
 * Gates every tool of an AI SDK tool set: each `execute` begins its call on
 * the session (with the SDK's `toolCallId`, and the targets, trust and
 * state-only flag a describing classifier gives) before it runs and ends it
 * when it settles. A blocked call never runs: its tool result is the
 * `FSMBlockedError` envelope, so the model reads what is missing. A throw is
 * rethrown (the SDK turns it into a tool error) and ends the call by the one
 * settle rule: an ordinary `Error` is a failure; a timeout, an abort, a cut
 * connection or anything unclassifiable is an unknown outcome (a write then
 * needs verifying). Only a tool its classifier declares self-verifying can
 * verify its own write, and never with evidence found in the call's own
 * arguments. After a read that verifies the last write, the verification is
 * completed, as the tool loop does. With `escalate`, each gated tool's
 * `needsApproval` asks a person about a call the session would block for one
 * of those reasons (see {@link guardToolApproval}), and a call they approved
 * has its approval attested before the machine decides it again. Tools without `execute` and provider-executed tools are
 * returned unchanged. Names, schemas and types stay the same. A classifier
 * that throws or returns no tool kind makes the call a write (fail closed).
 *
 * @throws {TypeError} naming the bad option (`options.session`, `options.classify`, `options.escalate`).
 * @example
 * const session = createSafetySession();
 * const result = await generateText({
 *   model: guardModel(openai('gpt-5'), { session }),
 *   tools: guardTools({ find_vm, restart_vm, get_vm_status }, { session, classify: createClassifier(rules) }),
 *   stopWhen: stepCountIs(10),
 *   prompt: 'Restart web-01',
 * });
 */
export function guardTools<T extends Record<string, unknown>>(tools: T, options: GuardToolsOptions): T {
  const parsed = safeParseInput(GuardToolsOptions, options);
  if (!parsed.success) throw optionsError('guardTools', parsed.error);
  if (typeof tools !== 'object' || tools === null) {
    throw new TypeError(
      `guardTools: tools: expected an object of tools, got ${tools === null ? 'null' : typeof tools}`,
    );
  }
  const { session, classify, escalate } = parsed.data;
  const guarded: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) guarded[name] = guardTool(name, tool, session, classify, escalate);
  return guarded as T;
}

function guardTool(
  name: string,
  tool: unknown,
  session: SafetySession,
  classify: GuardToolsOptions['classify'],
  escalate: readonly string[],
): unknown {
  if (typeof tool !== 'object' || tool === null) return tool;
  const t = tool as {
    execute?: unknown;
    toModelOutput?: unknown;
    isProviderExecuted?: unknown;
    needsApproval?: unknown;
  };
  // Provider-executed tools run at the provider; tools without execute are run by the caller.
  if (typeof t.execute !== 'function' || t.isProviderExecuted === true) return tool;
  const original = t.execute as AnyExecute;

  const execute: AnyExecute = (input, options) => {
    tellUserWords(session, options.messages);
    const call = describeCall(classify, options.toolCallId, name, input);
    forgetEscalation(session, options.toolCallId); // it runs, so nobody denied it
    const blocked = beginGated(session, call, escalate, () => approvalIn(options.messages, options.toolCallId));
    if (blocked) return blocked.toJSON(); // the tool never runs; the model reads what is missing
    const fail = (error: unknown): never => {
      settleGated(session, call, { ok: false, error }, options.abortSignal);
      throw rethrowable(error, name);
    };
    let result: unknown;
    try {
      result = original.call(tool, input, options);
    } catch (error) {
      return fail(error);
    }
    // The SDK checks synchronously whether a tool streams (preliminary results), so keep the shape.
    if (isAsyncIterable(result)) return streamed(result, call, session, options.abortSignal);
    return Promise.resolve(result).then((value) => {
      settleGated(session, call, { ok: true, value });
      return value;
    }, fail);
  };

  const guarded: Record<string, unknown> = { ...(tool as object), execute };
  if (typeof t.toModelOutput === 'function') {
    const toModelOutput = t.toModelOutput as ToModelOutput;
    // The tool's own converter expects its own output; a block envelope goes to the model as JSON.
    guarded.toModelOutput = (o: { toolCallId: string; input: unknown; output: unknown }) =>
      isEnvelope(o.output) ? { type: 'json', value: o.output } : toModelOutput.call(tool, o);
  }
  if (escalate.length > 0) {
    const own = t.needsApproval;
    // A person is asked when the tool itself asks, or when the gate would block the call for an escalated reason.
    guarded.needsApproval = async (input: unknown, context: ApprovalContext) => {
      const gate = escalationNeeded(session, classify, escalate, name, input, context);
      const asks = typeof own === 'function' ? await (own as NeedsApproval).call(tool, input, context) : own === true;
      return asks === true || gate;
    };
  }
  return guarded;
}

/** A streaming tool's outputs, passed through; the call ends with its last output (the final one). */
async function* streamed(
  outputs: AsyncIterable<unknown>,
  call: GatedCall,
  session: SafetySession,
  signal: AbortSignal | undefined,
): AsyncGenerator<unknown> {
  let last: unknown;
  let settled = false;
  try {
    for await (const output of outputs) {
      last = output;
      yield output;
    }
    settled = true;
    settleGated(session, call, { ok: true, value: last });
  } catch (error) {
    settled = true;
    settleGated(session, call, { ok: false, error }, signal);
    throw rethrowable(error, call.start.tool);
  } finally {
    // The consumer stopped early: the tool may still act, so the outcome is unknown.
    if (!settled) settleGated(session, call, { ok: false, unknown: true });
  }
}
