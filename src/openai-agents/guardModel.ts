import type {
  AgentInputItem,
  AgentOutputItem,
  Model,
  ModelRequest,
  ModelResponse,
  OutputGuardrail,
  StreamEvent,
} from '@openai/agents';
import { z } from 'zod';
import type { FSMBlockedError, SafetySession } from '../index.js';
import { deniedText, escalationOf } from '../harness/adapters/gateCall.js';
import { noteAskedCalls, tellUserWords } from '../harness/adapters/tellUserWords.js';
import { optionsError, rePromptText, SessionLike } from '../harness/adapters/adapterKit.js';
import { safeParseInput } from '../core/Issue.js';

/** What {@link guardModel} accepts. */
export const GuardModelOptions = z.strictObject({
  /** The session whose `canFinalAnswer()` decides. */
  session: SessionLike,
  /** How many times one model call is re-prompted before the answer is handed on. Default 2. */
  maxRePrompts: z.number().int().min(0).default(2),
});
export type GuardModelOptions = z.input<typeof GuardModelOptions>;

/** The name of the output guardrail {@link finalAnswerGuardrail} returns. */
export const FINAL_ANSWER_GUARDRAIL = 'assistant-safety:final-answer';

/** Output item types that ask the runner to run something on this side (so the response is not a final answer). */
const TOOL_CALLS = new Set(['function_call', 'computer_call', 'shell_call', 'apply_patch_call']);
const asksForTools = (output: readonly AgentOutputItem[]) => output.some((item) => TOOL_CALLS.has(item.type ?? ''));
/** The ids of the calls a response asks the runner to run. */
const callIdsOf = (output: readonly AgentOutputItem[]) =>
  output.flatMap((item) =>
    TOOL_CALLS.has(item.type ?? '') && typeof (item as { callId?: unknown }).callId === 'string'
      ? [(item as { callId: string }).callId]
      : [],
  );

/**
 * Wraps an Agents SDK `Model` so that a final answer about an unverified
 * write is not handed to the runner: when a response has no tool call while
 * `session.canFinalAnswer()` refuses, the model is asked again with its answer
 * and the block envelope appended to the input (a user message), up to
 * `maxRePrompts` times per model call. After that the answer is handed on and
 * {@link finalAnswerGuardrail} stops it before it reaches the user. The request's user messages and
 * instructions are told to the session first (`userMessage`): under target binding a value the user
 * typed validates a write's target.
 * Streamed responses are held until `response_done`, then checked the same way.
 *
 * @throws {TypeError} naming the bad option (`options.session`, `options.maxRePrompts`).
 * @example
 * const model = guardModel(new OpenAIResponsesModel(new OpenAI(), 'gpt-5'), { session });
 * const agent = new Agent({ name: 'ops', model, tools, outputGuardrails: [finalAnswerGuardrail({ session })] });
 */
export function guardModel(model: Model, options: GuardModelOptions): Model {
  const parsed = safeParseInput(GuardModelOptions, options);
  if (!parsed.success) throw optionsError('guardModel', parsed.error);
  const { session, maxRePrompts } = parsed.data;
  if (typeof model !== 'object' || model === null || typeof model.getResponse !== 'function') {
    throw new TypeError('guardModel: model: expected an Agents SDK Model (getResponse, getStreamedResponse)');
  }

  const rePrompt = (request: ModelRequest, output: readonly AgentOutputItem[], refusal: FSMBlockedError) => {
    const input: AgentInputItem[] =
      typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : [...request.input];
    for (const item of output) if (item.type === 'message' && item.role === 'assistant') input.push(item);
    input.push({ role: 'user', content: rePromptText(session, refusal) });
    return { ...request, input };
  };
  // The user's words (and the agent's instructions) reach the session before the model answers.
  const tell = (request: ModelRequest) => {
    if (request.systemInstructions) tellUserWords(session, [{ role: 'system', content: request.systemInstructions }]);
    tellUserWords(
      session,
      typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input,
    );
  };

  const guarded: Model = {
    async getResponse(request) {
      tell(request);
      let call = withRejectedBlocks(session, request);
      let response: ModelResponse = await model.getResponse(call);
      for (let n = 0; n < maxRePrompts && !asksForTools(response.output); n++) {
        const refusal = session.canFinalAnswer();
        if (!refusal) break;
        call = rePrompt(call, response.output, refusal);
        response = await model.getResponse(call);
      }
      noteAskedCalls(session, callIdsOf(response.output));
      return response;
    },
    async *getStreamedResponse(request) {
      tell(request);
      let call = withRejectedBlocks(session, request);
      for (let n = 0; ; n++) {
        const held: StreamEvent[] = [];
        let output: AgentOutputItem[] | undefined;
        for await (const event of model.getStreamedResponse(call)) {
          held.push(event);
          if (event.type === 'response_done') output = event.response.output as AgentOutputItem[];
        }
        if (output !== undefined) noteAskedCalls(session, callIdsOf(output));
        const final = output !== undefined && !asksForTools(output);
        const refusal = final && n < maxRePrompts ? session.canFinalAnswer() : null;
        if (!refusal) {
          yield* held;
          return;
        }
        call = rePrompt(call, output!, refusal);
      }
    },
  };
  if (model.getRetryAdvice) guarded.getRetryAdvice = model.getRetryAdvice.bind(model);
  return guarded;
}

/**
 * The request with each escalated call a person rejected (it never ran) shown as the block that
 * asked, after the SDK's rejection text (see `guardedTool`'s `escalate`).
 */
function withRejectedBlocks(session: SafetySession, request: ModelRequest): ModelRequest {
  if (typeof request.input === 'string') return request;
  let changed = false;
  const input = request.input.map((item): AgentInputItem => {
    if (item.type !== 'function_call_result') return item;
    const envelope = escalationOf(session, item.callId);
    if (!envelope) return item;
    const output: unknown = item.output;
    const said =
      typeof output === 'string'
        ? output
        : ((output as { type?: unknown; text?: unknown }).type === 'text' && (output as { text?: unknown }).text) || '';
    changed = true;
    return { ...item, output: { type: 'text' as const, text: deniedText(envelope, said) } };
  });
  return changed ? { ...request, input } : request;
}

/**
 * An agent output guardrail (`new Agent({ outputGuardrails: [...] })`) that
 * trips when `session.canFinalAnswer()` refuses: the run throws the SDK's
 * `OutputGuardrailTripwireTriggered`, whose `result.output.outputInfo` is the
 * block envelope, so an answer about an unverified write never reaches the
 * user unflagged.
 *
 * @example
 * try {
 *   await run(agent, 'Restart web-01');
 * } catch (e) {
 *   if (e instanceof OutputGuardrailTripwireTriggered) console.log(e.result.output.outputInfo.details.reasonCode);
 * }
 */
export function finalAnswerGuardrail(options: { session: SafetySession }): OutputGuardrail {
  const parsed = safeParseInput(z.strictObject({ session: SessionLike }), options);
  if (!parsed.success) throw optionsError('finalAnswerGuardrail', parsed.error);
  const { session } = parsed.data;
  return {
    name: FINAL_ANSWER_GUARDRAIL,
    execute: async () => {
      const refusal = session.canFinalAnswer();
      return { tripwireTriggered: refusal !== null, outputInfo: refusal ? refusal.toJSON() : null };
    },
  };
}
