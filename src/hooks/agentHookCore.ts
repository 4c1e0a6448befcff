import type { SafetySession } from '../safety/SafetySessionTypes.js';
import type { FSMBlockedError } from '../safety/FSMBlockedError.js';
import { finishToolCall } from '../harness/loop/finishToolCall.js';
import {
  codingCallStart,
  createCodingAgentClassifier,
  type CodingAgentCall,
  type CodingAgentClassifier,
} from '../presets/codingAgent.js';
import { explainBlock, type BlockSentences } from './explainBlock.js';

/*
 * What every coding agent's hook does on a session, whatever its event names: begin a tool call
 * before it runs, end it after, ask for the final answer when the agent stops, tell the session
 * what the user typed. The Codex CLI, Gemini CLI and Cursor hooks map their events onto these;
 * the Claude Code hook (respondToClaudeCodeHook) does the same with its own protocol's extras.
 */

/** Options shared by the hooks of Codex CLI, Gemini CLI and Cursor. */
export interface AgentHookOptions {
  /** How tool calls are classified (the agent's tools are first named as Claude Code's). Default: the coding-agent classifier with no rules, relative paths taken from the event's folder. */
  classify?: CodingAgentClassifier;
  /**
   * Tells whether a file the call writes would be created (its path as given, and the event's
   * working folder). A new file cannot be read first, so creating one establishes its target
   * (source `tool`); the write must still be checked afterwards. Without it, no file is new.
   */
  isNewFile?: (path: string, cwd: string) => boolean;
}

/** A call as the gate begins it: the classifier's verdict, and the files it may create. */
export interface AgentCall {
  call: CodingAgentCall;
  /** Files the call writes that may not exist yet: the path as the agent gave it, and its target. */
  creates?: readonly { path: string; target: string }[];
  /** The shell command, named in the sentences instead of the files. */
  command?: string;
}

/** How an agent's sentences are worded: `readsWithShell` for an agent with no tool that reads a file (Codex). */
export interface AgentWording {
  readsWithShell?: true;
}

/** A refused call: the block and its two sentences. */
export interface AgentBlock {
  block: FSMBlockedError;
  words: BlockSentences;
  /** The model's sentence, then the block's code in brackets. */
  reason: string;
}

/** FNV-1a (53 bits) of the tool name and input, as hex: a call id for agents that send none. */
export function callIdOf(tool: string, input: unknown): string {
  const text = `${tool}\u0000${JSON.stringify(input) ?? ''}`;
  let h1 = 0x811c9dc5;
  let h2 = 0x1000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  return `call-${(h1 >>> 0).toString(16)}${(h2 >>> 0).toString(16)}`;
}

/** The targets still needing evidence for a block (the session's, when the block names none). */
function pendingOf(block: FSMBlockedError, session: SafetySession): readonly string[] {
  const needsEvidence = block.reasonCode === 'UNVERIFIED_WRITE' || block.reasonCode === 'FINAL_ANSWER_UNVERIFIED';
  if (!needsEvidence) return [];
  // Under the coding profile a final answer waits for the edited files nobody checked: those are named.
  const edited = (session.context as { editedFiles?: readonly { target: string }[] }).editedFiles ?? [];
  if (block.reasonCode === 'FINAL_ANSWER_UNVERIFIED' && edited.length > 0) return edited.map((f) => f.target);
  return session.context.uncoveredTargets;
}

/**
 * The two sentences of a block on a coding agent's session: the files still to check, or else the
 * tool of the last change (and whether the hook knows it), the refused call's files or command, and
 * whether the refused tool is one the hook does not know. Every agent's hook words its blocks here.
 */
export function sentencesOf(
  block: FSMBlockedError,
  session: SafetySession,
  cwd: string,
  extra: { command?: string; call?: CodingAgentCall; classify?: CodingAgentClassifier } & AgentWording = {},
): BlockSentences {
  const pending = pendingOf(block, session);
  const lastTool = session.context.lastWriteTool;
  const namesLast =
    pending.length === 0 &&
    lastTool !== null &&
    (block.reasonCode === 'UNVERIFIED_WRITE' || block.reasonCode === 'FINAL_ANSWER_UNVERIFIED');
  return explainBlock({
    reasonCode: block.reasonCode,
    cwd,
    ...(block.toolName !== undefined && { toolName: block.toolName }),
    ...(block.targets !== undefined && { targets: block.targets }),
    ...(pending.length > 0 && { pending }),
    ...(extra.command !== undefined && { command: extra.command }),
    ...(extra.call?.undeclared && { undeclared: true }),
    ...(extra.readsWithShell && { readsWithShell: true }),
    ...(namesLast && {
      lastChange: { tool: lastTool, ...(extra.classify?.(lastTool, {}).undeclared && { undeclared: true }) },
    }),
  });
}

/** The sentences of a block, and the model's sentence with the block's code in brackets. */
function blockWords(
  block: FSMBlockedError,
  session: SafetySession,
  cwd: string,
  extra: Parameters<typeof sentencesOf>[3] = {},
): AgentBlock {
  const words = sentencesOf(block, session, cwd, extra);
  return { block, words, reason: `${words.model} [${block.reasonCode}]` };
}

/** Whether a call is in flight on the session. */
const inFlight = (session: SafetySession, id: string) => Object.hasOwn(session.context.calls, id);

/**
 * Begins a call before it runs: its new files establish their targets first, then the machine
 * decides. Returns the block in words, or nothing when the call may go (or was already begun).
 */
export function beginAgentCall(
  session: SafetySession,
  id: string,
  { call, creates, command }: AgentCall,
  cwd: string,
  options: AgentHookOptions,
  wording: AgentWording = {},
): AgentBlock | undefined {
  if (inFlight(session, id)) return undefined; // asked twice (two matching entries): already begun
  if (call.kind === 'write' && creates && options.isNewFile) {
    const unvalidated = creates
      .filter((c) => !session.validatedTargets.includes(c.target) && options.isNewFile!(c.path, cwd))
      .map((c) => c.target);
    if (unvalidated.length > 0) session.targetEstablished({ targets: unvalidated, source: 'tool' });
  }
  const blocked = session.beginToolCall(codingCallStart(id, call));
  return blocked
    ? blockWords(blocked, session, cwd, {
        ...wording,
        ...(command !== undefined && { command }),
        call,
        classify: classifierOf(options, cwd),
      })
    : undefined;
}

/**
 * Ends a call after it ran: `ok` (a read that verifies the last write completes the verification
 * at once), failed, or `unknown` (it may have acted). A call the gate never began (its first
 * event was missed) still tells the session what ran when it succeeded.
 */
export function endAgentCall(
  session: SafetySession,
  id: string,
  outcome: 'ok' | 'failed' | 'unknown',
  call: () => CodingAgentCall,
): void {
  if (inFlight(session, id)) {
    if (outcome === 'ok') finishToolCall(session, { id, ok: true });
    else session.endToolCall({ id, ok: false, ...(outcome === 'unknown' && { unknown: true }) });
    return;
  }
  if (outcome === 'ok') {
    const c = call();
    session.onToolSuccess(c.kind, c.tool, c.targets);
  }
}

/** Ends, as `unknown`, every call still in flight (they may have acted): what a stop or a new turn does. */
export function endLeftovers(session: SafetySession, only?: (kind: string) => boolean): void {
  for (const [id, call] of Object.entries(session.context.calls))
    if (!only || only(call.kind)) session.endToolCall({ id, ok: false, unknown: true });
}

/** The agent wants to stop: what never reported back is ended, then the final answer is asked for. */
export function stopAgent(
  session: SafetySession,
  cwd: string,
  options: AgentHookOptions = {},
  wording: AgentWording = {},
): AgentBlock | undefined {
  endLeftovers(session);
  const blocked = session.canFinalAnswer();
  return blocked ? blockWords(blocked, session, cwd, { ...wording, classify: classifierOf(options, cwd) }) : undefined;
}

/** The classifier of the options, or the default one taking relative paths from `cwd`. */
export const classifierOf = (options: AgentHookOptions, cwd: string): CodingAgentClassifier =>
  options.classify ?? createCodingAgentClassifier({ cwd });

/** An own string field of untrusted input. */
export function stringField(input: unknown, ...names: string[]): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  for (const name of names) {
    const desc = Object.getOwnPropertyDescriptor(input, name);
    if (desc && 'value' in desc && typeof desc.value === 'string' && desc.value !== '') return desc.value;
  }
  return undefined;
}
