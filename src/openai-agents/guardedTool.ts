import {
  tool,
  type FunctionTool,
  type ToolInputParameters,
  type ToolOptions,
  type ToolOutputSchema,
  type UnknownContext,
} from '@openai/agents';
import { z } from 'zod';
import type { ToolKind } from '../index.js';
// Core helpers shared with the tool loop; not part of the root entry's API.
import { classifyOrWrite, gateToolCall } from '../loop/gateToolCall.js';
import { optionsError, SessionLike } from '../ai-sdk/shared.js';

/** What {@link guardedTool} takes besides the tool's own options. */
export const GuardOptions = z.strictObject({
  /** The session every call goes through. */
  session: SessionLike,
  /** `(toolName, input) => ToolKind`; a classifier from `createClassifier` fits. */
  classify: z.custom<(toolName: string, input: unknown) => ToolKind>((v) => typeof v === 'function', {
    message: 'expected a function (toolName, input) => ToolKind',
  }),
});
export type GuardOptions = z.input<typeof GuardOptions>;

type Execute = (
  input: unknown,
  context?: unknown,
  details?: { toolCall?: { callId?: string }; signal?: AbortSignal },
) => unknown;

/**
 * `tool(options)` from `@openai/agents`, gated: the same options, the same
 * `FunctionTool`, with `execute` run through the session's call-lifecycle API.
 * The call begins (with the model's `callId`) after the SDK has parsed the
 * input, asked for approval (`needsApproval`) and run the tool's input
 * guardrails, and ends when `execute` settles. A blocked call never runs: its
 * output is the `FSMBlockedError` envelope, so the model reads what is
 * missing. A throw is a failed call and is rethrown to the SDK (whose
 * `errorFunction` words it for the model, as without the gate); an abort or
 * timeout is an unknown outcome. After a read that verifies the last write,
 * the verification is completed, as the tool loop does.
 *
 * @throws {TypeError} naming the bad option (`guard.session`, `guard.classify`).
 * @example
 * const guard = { session: createSafetySession(), classify: createClassifier(rules) };
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
  const parsed = GuardOptions.safeParse(guard);
  if (!parsed.success) throw optionsError('guardedTool', parsed.error, 'guard');
  const { session, classify } = parsed.data;
  if (typeof options !== 'object' || options === null || typeof options.execute !== 'function') {
    throw new TypeError('guardedTool: options.execute: expected a function');
  }
  const original = options.execute as Execute;
  const name = options.name ?? original.name;
  let anonymous = 0;
  const execute: Execute = async (input, context, details) => {
    const id = details?.toolCall?.callId ?? `${name}-${++anonymous}-${globalThis.crypto.randomUUID()}`;
    const call = { id, kind: classifyOrWrite(classify, name, input), tool: name };
    const out = await gateToolCall(session, call, () => original(input, context, details), details?.signal);
    return out.blocked ? out.envelope : out.value;
  };
  return tool<TParameters, Context, Result, TOutputSchema>({
    ...options,
    execute,
  } as ToolOptions<TParameters, Context, TOutputSchema>) as FunctionTool<Context, TParameters, Result>;
}
