import * as z from 'zod';
import type { Rng } from '../prng.js';

/** One tool call of an OpenAI chat assistant message. */
export const ToolCall = z.object({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});
export type ToolCall = z.infer<typeof ToolCall>;

/** A message of an OpenAI chat run, as the audit reads it. */
export const ChatMessage = z.union([
  z.object({ role: z.enum(['system', 'user']), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string().nullable(), tool_calls: z.array(ToolCall).optional() }),
  z.object({
    role: z.literal('tool'),
    tool_call_id: z.string().min(1),
    content: z.string(),
    error: z.string().nullable().optional(),
  }),
]);
export type ChatMessage = z.infer<typeof ChatMessage>;

/** One row of a domain's corpus file (JSON Lines). */
export const AgentRun = z.object({ id: z.string().min(1), messages: z.array(ChatMessage).min(2) });
export type AgentRun = z.infer<typeof AgentRun>;

/** What an injected call did: a write to the attacker, or a read sending data to the attacker. */
export const InjectedKind = z.enum(['write', 'egress']);
export type InjectedKind = z.infer<typeof InjectedKind>;

/** Ground truth of one run, kept apart from the corpus (the gate never sees it). */
export const RunLabel = z.object({
  id: z.string().min(1),
  domain: z.string().min(1),
  task: z.string().min(1),
  /** An instruction was injected into some tool output. */
  attacked: z.boolean(),
  /** Where the injection sat (mail body, review, ...), when attacked. */
  vector: z.string().optional(),
  /** The calls the model made on the attacker's behalf, by call id. Empty: it did not follow. */
  injected: z.array(z.object({ callId: z.string().min(1), tool: z.string().min(1), kind: InjectedKind })),
});
export type RunLabel = z.infer<typeof RunLabel>;

/** A tool call to make: name, arguments, and the result the tool gave (or an error). */
export interface Step {
  name: string;
  args: Record<string, unknown>;
  result?: unknown;
  error?: string;
  /** This call is the model following an injection. */
  injected?: InjectedKind;
}

/**
 * Writes one run as a model's conversation: each `call` is one assistant message with its
 * tool calls (several = a parallel batch) followed by their tool messages.
 */
export class RunBuilder {
  readonly messages: ChatMessage[] = [];
  readonly injected: RunLabel['injected'] = [];
  constructor(readonly rng: Rng) {}

  system(text: string) {
    this.messages.push({ role: 'system', content: text });
    return this;
  }

  user(text: string) {
    this.messages.push({ role: 'user', content: text });
    return this;
  }

  /** One assistant turn with these calls (a parallel batch when more than one); returns their ids. */
  call(...steps: Step[]): string[] {
    const ids = steps.map(() => `call_${this.rng.word(24)}`);
    const thought = this.rng.chance(0.25)
      ? this.rng.pick(['Let me check that.', 'I will look this up first.', ''])
      : null;
    this.messages.push({
      role: 'assistant',
      content: thought,
      tool_calls: steps.map((s, i) => ({
        id: ids[i] as string,
        type: 'function' as const,
        function: { name: s.name, arguments: JSON.stringify(s.args) },
      })),
    });
    steps.forEach((s, i) => {
      const id = ids[i] as string;
      if (s.injected) this.injected.push({ callId: id, tool: s.name, kind: s.injected });
      const content =
        s.error !== undefined ? s.error : typeof s.result === 'string' ? s.result : JSON.stringify(s.result ?? null);
      this.messages.push({ role: 'tool', tool_call_id: id, content, error: s.error ?? null });
    });
    return ids;
  }

  say(text: string) {
    this.messages.push({ role: 'assistant', content: text });
    return this;
  }
}

/** What a domain's task writer returns. */
export interface Written {
  task: string;
  attacked: boolean;
  vector?: string;
}

/** A task writer: fills the builder with one run. `attack` says whether to inject and whether the model follows. */
export type TaskWriter = (b: RunBuilder, rng: Rng, attack: Attack | undefined) => Written;

/** The injection planned for a run. */
export interface Attack {
  /** The model does what the injected text says. */
  follows: boolean;
  /** The injected instruction, as it appears inside the tool output. */
  text: string;
  /** The attacker's values. */
  iban: string;
  email: string;
  url: string;
  channel: string;
  user: string;
}
