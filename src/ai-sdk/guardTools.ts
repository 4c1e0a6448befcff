import { z } from 'zod';
import type { SafetySession, ToolKind } from '../index.js';
// Core helpers shared with the tool loop; not part of the root entry's API.
import { classifyOrWrite, isUnknownOutcome } from '../loop/gateToolCall.js';
import { settleToolCall } from '../loop/settleToolCall.js';
import { isEnvelope, optionsError, SessionLike } from './shared.js';

/** What {@link guardTools} accepts. */
export const GuardToolsOptions = z.strictObject({
  /** The session every call goes through. */
  session: SessionLike,
  /** `(toolName, input) => ToolKind`; a classifier from `createClassifier` fits. */
  classify: z.custom<(toolName: string, input: unknown) => ToolKind>((v) => typeof v === 'function', {
    message: 'expected a function (toolName, input) => ToolKind',
  }),
});
export type GuardToolsOptions = z.input<typeof GuardToolsOptions>;

type AnyExecute = (input: unknown, options: { toolCallId: string; abortSignal?: AbortSignal }) => unknown;
type ToModelOutput = (options: { toolCallId: string; input: unknown; output: unknown }) => unknown;

const isAsyncIterable = (v: unknown): v is AsyncIterable<unknown> =>
  typeof v === 'object' && v !== null && typeof (v as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function';

/**
 * Gates every tool of an AI SDK tool set: each `execute` begins its call on
 * the session (with the SDK's `toolCallId`) before it runs and ends it when it
 * settles. A blocked call never runs: its tool result is the
 * `FSMBlockedError` envelope, so the model reads what is missing. A throw is
 * a failed call and is rethrown (the SDK turns it into a tool error); an
 * abort or timeout is an unknown outcome (a write then needs verifying). After
 * a read that verifies the last write, the verification is completed, as the
 * tool loop does. Tools without `execute` and provider-executed tools are
 * returned unchanged. Names, schemas and types stay the same. A classifier
 * that throws or returns no tool kind makes the call a write (fail closed).
 *
 * @throws {TypeError} naming the bad option (`options.session`, `options.classify`).
 * @example
 * const session = createSafetySession();
 * const result = await generateText({
 *   model: guardModel(openai('gpt-5'), { session }),
 *   tools: guardTools({ find_vm, restart_vm, get_vm_status }, { session, classify: createClassifier(rules) }),
 *   stopWhen: isStepCount(10),
 *   prompt: 'Restart web-01',
 * });
 */
export function guardTools<T extends Record<string, unknown>>(tools: T, options: GuardToolsOptions): T {
  const parsed = GuardToolsOptions.safeParse(options);
  if (!parsed.success) throw optionsError('guardTools', parsed.error);
  if (typeof tools !== 'object' || tools === null) {
    throw new TypeError(
      `guardTools: tools: expected an object of tools, got ${tools === null ? 'null' : typeof tools}`,
    );
  }
  const { session, classify } = parsed.data;
  const guarded: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) guarded[name] = guardTool(name, tool, session, classify);
  return guarded as T;
}

function guardTool(
  name: string,
  tool: unknown,
  session: SafetySession,
  classify: (toolName: string, input: unknown) => ToolKind,
): unknown {
  if (typeof tool !== 'object' || tool === null) return tool;
  const t = tool as { execute?: unknown; toModelOutput?: unknown; isProviderExecuted?: unknown };
  // Provider-executed tools run at the provider; tools without execute are run by the caller.
  if (typeof t.execute !== 'function' || t.isProviderExecuted === true) return tool;
  const original = t.execute as AnyExecute;

  const execute: AnyExecute = (input, options) => {
    const call = { id: options.toolCallId, kind: classifyOrWrite(classify, name, input), tool: name };
    const blocked = session.beginToolCall(call);
    if (blocked) return blocked.toJSON(); // the tool never runs; the model reads what is missing
    const fail = (error: unknown): never => {
      settleToolCall(session, call, { ok: false, unknown: isUnknownOutcome(error, options.abortSignal) });
      throw error;
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
      settleToolCall(session, call, { ok: true, value });
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
  return guarded;
}

/** A streaming tool's outputs, passed through; the call ends with its last output (the final one). */
async function* streamed(
  outputs: AsyncIterable<unknown>,
  call: { id: string; kind: ToolKind },
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
    settleToolCall(session, call, { ok: true, value: last });
  } catch (error) {
    settled = true;
    settleToolCall(session, call, { ok: false, unknown: isUnknownOutcome(error, signal) });
    throw error;
  } finally {
    // The consumer stopped early: the tool may still act, so the outcome is unknown.
    if (!settled) settleToolCall(session, call, { ok: false, unknown: true });
  }
}
