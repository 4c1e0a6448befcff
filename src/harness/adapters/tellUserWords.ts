/*
 * The user's words as the adapters see them: the user and system messages of the conversation a
 * model answers. A sub-agent that shares the session (a tool whose execute runs another model, an
 * Agents SDK agent-as-tool) is handed a user message a model wrote, often from tool output; it must
 * never count as the user's. An adapter cannot see who wrote a message, but it can see whose
 * conversation it is: the conversation the session's tool calls belong to holds every tool call a
 * model asked for that still waits for its result, and every call in flight. A nested conversation
 * holds neither, so its messages are not told (docs/targets.md, "Sub-agents").
 */
import type { SafetySession } from '../../safety/SafetySessionTypes.js';

/** The messages already told to each session, by their text: a tool loop hands every call the whole history. */
const told = new WeakMap<SafetySession, Set<string>>();
const MAX_TOLD = 64;

/** Per session: the tool calls its models asked for whose results no conversation has shown since. */
const awaited = new WeakMap<SafetySession, Set<string>>();
/** Asked calls kept at most; past it the oldest are forgotten (a run that never answered them). */
const MAX_AWAITED = 256;

/**
 * Notes the tool calls a model's answer asked for (their ids): until a conversation shows their
 * results, only a conversation that holds them is the user's.
 */
export function noteAskedCalls(session: SafetySession, ids: Iterable<string>): void {
  let asked = awaited.get(session);
  if (!asked) awaited.set(session, (asked = new Set()));
  for (const id of ids) {
    asked.add(id);
    if (asked.size > MAX_AWAITED) asked.delete(asked.values().next().value!);
  }
}

/**
 * Tells the session what the user (or the engineer's system prompt) said, once per distinct text:
 * values standing in those words validate a write's targets with source `user` (`targets: 'bind'`).
 * `messages` are chat messages or input items of any SDK shape (`{ role, content }`, content a
 * string or text parts; tool calls as `tool-call` parts or `function_call` items); only `user` and
 * `system` (and `developer`) messages are read, never a tool's or the assistant's. Nothing is told
 * from a conversation that lacks a call the session waits for (one asked for and not answered, or
 * in flight): that is a nested conversation, whose user message a model wrote.
 */
export function tellUserWords(session: SafetySession, messages: readonly unknown[] | undefined): void {
  if (!Array.isArray(messages)) return;
  const { calls, results } = toolCallsOf(messages);
  const asked = awaited.get(session);
  if (asked) for (const id of results) asked.delete(id);
  if (asked) for (const id of asked) if (!calls.has(id)) return;
  for (const id of Object.keys(session.context.calls)) if (!calls.has(id)) return;
  let seen = told.get(session);
  if (!seen) told.set(session, (seen = new Set()));
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { role, content } = message as { role?: unknown; content?: unknown };
    const source = role === 'user' ? 'user' : role === 'system' || role === 'developer' ? 'system' : undefined;
    if (source === undefined) continue;
    const text = textOfContent(content);
    // The gate's own re-prompt (a block envelope sent as a user message) is not the user's words.
    if (text.trim() === '' || seen.has(text) || text.startsWith('{"error":"FSM_BLOCKED"')) continue;
    seen.add(text);
    if (seen.size > MAX_TOLD) seen.delete(seen.values().next().value!);
    session.userMessage(text, { source });
  }
}

/**
 * The ids of the tool calls a conversation holds, and of the results it holds: AI SDK messages
 * (`tool-call` and `tool-result` parts) and Agents SDK items (`function_call`, `function_call_result`, ...).
 */
function toolCallsOf(messages: readonly unknown[]): { calls: Set<string>; results: Set<string> } {
  const calls = new Set<string>();
  const results = new Set<string>();
  const note = (part: unknown) => {
    if (typeof part !== 'object' || part === null) return;
    const { type, toolCallId, callId } = part as { type?: unknown; toolCallId?: unknown; callId?: unknown };
    if (type === 'tool-call' && typeof toolCallId === 'string') calls.add(toolCallId);
    else if (type === 'tool-result' && typeof toolCallId === 'string') results.add(toolCallId);
    else if (typeof type !== 'string' || typeof callId !== 'string') return;
    // Agents SDK items: `function_call` (and `computer_call`, `shell_call`, ...) and their
    // `function_call_result`, `computer_call_result`, `shell_call_output`, ...
    else if (type.endsWith('_call')) calls.add(callId);
    else if (type.endsWith('_call_result') || type.endsWith('_call_output')) results.add(callId);
  };
  for (const message of messages) {
    note(message);
    const content = typeof message === 'object' && message !== null ? (message as { content?: unknown }).content : 0;
    if (Array.isArray(content)) for (const part of content as unknown[]) note(part);
  }
  return { calls, results };
}

/** A message's text: a string, or its text parts (`{ type: 'text' | 'input_text', text }`) joined. */
function textOfContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const part of content as unknown[]) {
    const text = typeof part === 'object' && part !== null ? (part as { text?: unknown }).text : undefined;
    if (typeof text === 'string') parts.push(text);
  }
  return parts.join('\n');
}
