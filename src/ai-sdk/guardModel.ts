import { gateway, wrapLanguageModel, type LanguageModel, type LanguageModelMiddleware } from 'ai';
import { z } from 'zod';
import type { FSMBlockedError, SafetySession } from '../index.js';
import { deniedText, escalationOf } from '../harness/adapters/gateCall.js';
import { noteAskedCalls, tellUserWords } from '../harness/adapters/tellUserWords.js';
import { optionsError, rePromptText, SessionLike } from '../harness/adapters/adapterKit.js';
import { safeParseInput } from '../core/Issue.js';

/** The provider-metadata key under which {@link guardModel} reports a final answer that passed while blocked. */
export const METADATA_KEY = 'assistant-safety';

/**
 * What {@link guardModel} puts in `providerMetadata['assistant-safety']` of a
 * final answer it let through after `maxRePrompts` re-prompts while
 * `canFinalAnswer()` still refused it (JSON, so it survives every transport).
 */
export interface FinalAnswerFlag {
  /** Always true: this answer is about a change that is not verified. */
  finalAnswerBlocked: true;
  /** The refusal's envelope (`FSMBlockedError.toJSON()`). */
  envelope: ReturnType<FSMBlockedError['toJSON']>;
  /** How many times the model was asked again in this call. */
  rePrompts: number;
}

/** What {@link guardModel} accepts. */
export const GuardModelOptions = z.strictObject({
  /** The session whose `canFinalAnswer()` decides. */
  session: SessionLike,
  /** How many times one model call is re-prompted before the answer passes, flagged. Default 2. */
  maxRePrompts: z.number().int().min(0).default(2),
});
export type GuardModelOptions = z.input<typeof GuardModelOptions>;

type Model = Exclude<LanguageModel, string>;
// The provider types, as the `ai` package's own middleware type names them (no import of @ai-sdk/provider).
type WrapGenerate = NonNullable<LanguageModelMiddleware['wrapGenerate']>;
type LanguageModelV3 = ReturnType<typeof wrapLanguageModel>;
type LanguageModelV3CallOptions = Parameters<WrapGenerate>[0]['params'];
type LanguageModelV3Prompt = LanguageModelV3CallOptions['prompt'];
type LanguageModelV3Content = Awaited<ReturnType<WrapGenerate>>['content'][number];
type LanguageModelV3StreamResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapStream']>>>;
type LanguageModelV3StreamPart = LanguageModelV3StreamResult['stream'] extends ReadableStream<infer P> ? P : never;
type ProviderMetadataEntry = NonNullable<Awaited<ReturnType<WrapGenerate>>['providerMetadata']>[string];

/**
 * Wraps a language model (with the AI SDK's `wrapLanguageModel` middleware)
 * so that a final answer about an unverified write is not passed on, for
 * `generateText` and `streamText` alike. When the model answers without a
 * tool call while `session.canFinalAnswer()` refuses, the model is called
 * again with the answer and the block envelope appended to the prompt (a user
 * message), up to `maxRePrompts` times per model call. After that the answer
 * passes, flagged: `providerMetadata['assistant-safety']` holds a
 * {@link FinalAnswerFlag} and the call's warnings say so. Never silently.
 *
 * With `streamText` a step is held back until it shows a tool call (then it
 * streams on) or ends (then the check runs), so a refused answer never
 * reaches the stream.
 *
 * @throws {TypeError} naming the bad option (`options.session`, `options.maxRePrompts`), or a model
 *   that is not a `LanguageModelV3` (a provider older than AI SDK 6's).
 * @example
 * const session = createSafetySession();
 * const model = guardModel(openai('gpt-5'), { session, maxRePrompts: 2 });
 * const result = await generateText({ model, tools: guardTools(tools, { session, classify }), stopWhen: stepCountIs(10), prompt });
 * result.providerMetadata?.['assistant-safety']; // set only when an unverified answer was let through
 */
export function guardModel(model: LanguageModel, options: GuardModelOptions): LanguageModelV3 {
  const parsed = safeParseInput(GuardModelOptions, options);
  if (!parsed.success) throw optionsError('guardModel', parsed.error);
  const { session, maxRePrompts } = parsed.data;
  if (model === null || (typeof model !== 'string' && typeof model !== 'object')) {
    throw new TypeError(`guardModel: model: expected a language model or a model id, got ${String(model)}`);
  }
  // A model id resolves the way the SDK resolves it: the global default provider, else the gateway.
  const resolved: Model =
    typeof model === 'string'
      ? (
          (globalThis as { AI_SDK_DEFAULT_PROVIDER?: { languageModel(id: string): Model } }).AI_SDK_DEFAULT_PROVIDER ??
          gateway
        ).languageModel(model)
      : model;
  if (typeof resolved.specificationVersion !== 'string')
    throw new TypeError(
      "guardModel: model: expected a language model (a provider's model, such as openai('gpt-5')) or a model id, got an object without specificationVersion",
    );
  // Middleware wraps the SDK's own model version: an older provider's model is named, not half-wrapped.
  if (resolved.specificationVersion !== 'v3') {
    throw new TypeError(
      `guardModel: model: expected a LanguageModelV3 (AI SDK 6 providers), got specificationVersion '${String(
        resolved.specificationVersion,
      )}' from ${String(resolved.provider)}; update the provider package to the major that AI SDK 6 uses`,
    );
  }

  const rePrompt = (
    params: LanguageModelV3CallOptions,
    prompt: LanguageModelV3Prompt,
    answer: string,
    refusal: FSMBlockedError,
  ) => {
    const next: LanguageModelV3Prompt = [...prompt];
    if (answer) next.push({ role: 'assistant', content: [{ type: 'text', text: answer }] });
    next.push({ role: 'user', content: [{ type: 'text', text: rePromptText(session, refusal) }] });
    return { ...params, prompt: next };
  };

  const middleware: LanguageModelMiddleware = {
    specificationVersion: 'v3',
    // A call a person denied after an escalation: the model reads the block that asked, with their reason.
    // The user's words (and the system prompt) reach the session before the model answers.
    transformParams: async ({ params }) => {
      tellUserWords(session, params.prompt);
      return { ...params, prompt: withDeniedBlocks(session, params.prompt) };
    },
    wrapGenerate: async ({ doGenerate, params, model: inner }) => {
      let result = await doGenerate();
      let call = params;
      for (let n = 0; ; n++) {
        if (result.content.some(asksForTools)) {
          noteAskedCalls(session, result.content.flatMap(toolCallIdOf));
          return result;
        }
        const refusal = session.canFinalAnswer();
        if (!refusal) return result;
        if (n >= maxRePrompts) {
          return {
            ...result,
            providerMetadata: { ...result.providerMetadata, [METADATA_KEY]: flagOf(refusal, n) },
            warnings: [...result.warnings, warningOf(refusal)],
          };
        }
        call = rePrompt(call, call.prompt, textOf(result.content), refusal);
        result = await inner.doGenerate(call);
      }
    },
    wrapStream: async ({ doStream, params, model: inner }) => {
      let current = await doStream();
      let call = params;
      for (let n = 0; ; n++) {
        const reader = current.stream.getReader();
        const held: LanguageModelV3StreamPart[] = [];
        let done = false;
        while (!done) {
          const next = await reader.read();
          if (next.done) {
            done = true;
            break;
          }
          held.push(next.value);
          // Not a final answer: let the step stream on.
          if (asksForTools(next.value) || next.value.type === 'error')
            return { ...current, stream: resume(held, reader, (part) => noteAskedCalls(session, toolCallIdOf(part))) };
        }
        const refusal = session.canFinalAnswer();
        if (!refusal) return { ...current, stream: streamOf(held) };
        if (n >= maxRePrompts) return { ...current, stream: streamOf(flagParts(held, refusal, n)) };
        call = rePrompt(call, call.prompt, textOfParts(held), refusal);
        current = await inner.doStream(call);
      }
    },
  };
  return wrapLanguageModel({ model: resolved, middleware });
}

/** The prompt with each escalated call a person denied shown as the block that asked (see `guardToolApproval`). */
function withDeniedBlocks(session: SafetySession, prompt: LanguageModelV3Prompt): LanguageModelV3Prompt {
  return prompt.map((message) => {
    if (message.role !== 'tool') return message;
    let changed = false;
    const content = message.content.map((part) => {
      if (part.type !== 'tool-result' || part.output.type !== 'execution-denied') return part;
      const envelope = escalationOf(session, part.toolCallId);
      if (!envelope) return part;
      changed = true;
      return { ...part, output: { ...part.output, reason: deniedText(envelope, part.output.reason) } };
    });
    return changed ? { ...message, content } : message;
  });
}

/** The id of a tool call this side runs (none for a provider-executed one). */
function toolCallIdOf(part: LanguageModelV3Content | LanguageModelV3StreamPart): string[] {
  return part.type === 'tool-call' && part.providerExecuted !== true ? [part.toolCallId] : [];
}

/** A part that means the model wants tools run (so this is not its final answer). */
function asksForTools(part: LanguageModelV3Content | LanguageModelV3StreamPart): boolean {
  if (part.type === 'tool-call' || part.type === 'tool-input-start') return part.providerExecuted !== true;
  return part.type === 'tool-approval-request';
}

function textOf(content: LanguageModelV3Content[]): string {
  return content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

function textOfParts(parts: LanguageModelV3StreamPart[]): string {
  return parts.map((p) => (p.type === 'text-delta' ? p.delta : '')).join('');
}

function flagOf(refusal: FSMBlockedError, rePrompts: number) {
  const flag: FinalAnswerFlag = { finalAnswerBlocked: true, envelope: refusal.toJSON(), rePrompts };
  return flag as unknown as ProviderMetadataEntry; // plain JSON: strings, booleans and a number
}

function warningOf(refusal: FSMBlockedError) {
  return { type: 'other' as const, message: `${METADATA_KEY}: final answer passed while blocked: ${refusal.message}` };
}

function flagParts(parts: LanguageModelV3StreamPart[], refusal: FSMBlockedError, rePrompts: number) {
  const flagged = parts.map((p): LanguageModelV3StreamPart => {
    if (p.type === 'finish') {
      return { ...p, providerMetadata: { ...p.providerMetadata, [METADATA_KEY]: flagOf(refusal, rePrompts) } };
    }
    if (p.type === 'stream-start') return { ...p, warnings: [...p.warnings, warningOf(refusal)] };
    return p;
  });
  // A stream without a finish part still carries the flag.
  if (!flagged.some((p) => p.type === 'finish')) {
    flagged.push({
      type: 'finish',
      finishReason: { unified: 'stop', raw: undefined },
      usage: {
        inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: undefined, text: undefined, reasoning: undefined },
      },
      providerMetadata: { [METADATA_KEY]: flagOf(refusal, rePrompts) },
    });
  }
  return flagged;
}

function streamOf(parts: LanguageModelV3StreamPart[]): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/** The held parts, then the rest of the model's stream as it comes. */
function resume(
  held: LanguageModelV3StreamPart[],
  reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart>,
  onPart: (part: LanguageModelV3StreamPart) => void,
): LanguageModelV3StreamResult['stream'] {
  let i = 0;
  return new ReadableStream({
    async pull(controller) {
      if (i < held.length) {
        onPart(held[i]!);
        controller.enqueue(held[i++]!);
        return;
      }
      const next = await reader.read();
      if (next.done) controller.close();
      else {
        onPart(next.value);
        controller.enqueue(next.value);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
