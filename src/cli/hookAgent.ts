import { CodexHookInput, CODEX_HOOK_EVENTS } from '../hooks/CodexHookInput.js';
import { GeminiHookInput, GEMINI_HOOK_EVENTS } from '../hooks/GeminiHookInput.js';
import { CursorHookInput, CURSOR_HOOK_EVENTS } from '../hooks/CursorHookInput.js';
import { respondToCodexHook } from '../hooks/respondToCodexHook.js';
import { respondToGeminiHook } from '../hooks/respondToGeminiHook.js';
import { cursorCwd, respondToCursorHook } from '../hooks/respondToCursorHook.js';
import type { CliIO } from './Command.js';
import { DEFAULT_HOOK_PROFILE, runHookEvent, type HookProtocol } from './hookRun.js';

/*
 * `assistant-safety hook codex|gemini|cursor`: one hook event of Codex CLI, Gemini CLI or Cursor
 * per process, decided on the same sessions, rules and store as `hook claude-code`. All three
 * agents take exit code 2 (with the reason on stderr) as "refuse": every failure of the hook
 * itself ends that way, never as an answer that lets the call go.
 */

type Lifecycle = 'start' | 'end' | undefined;

/** The agents this command speaks. */
export type AgentName = 'codex' | 'gemini' | 'cursor';

const AGENT_PROTOCOLS: {
  codex: HookProtocol<CodexHookInput>;
  gemini: HookProtocol<GeminiHookInput>;
  cursor: HookProtocol<CursorHookInput>;
} = {
  codex: {
    label: 'Codex CLI',
    events: CODEX_HOOK_EVENTS,
    parse: (raw) => CodexHookInput.safeParse(raw),
    sessionId: (i) => i.session_id,
    cwd: (i) => i.cwd,
    lifecycle: (i): Lifecycle =>
      i.hook_event_name === 'SessionStart' ? 'start' : i.hook_event_name === 'SessionEnd' ? 'end' : undefined,
    respond: (i, s, _notes, o) => respondToCodexHook(i, s, o),
  } satisfies HookProtocol<CodexHookInput>,
  gemini: {
    label: 'Gemini CLI',
    events: GEMINI_HOOK_EVENTS,
    parse: (raw) => GeminiHookInput.safeParse(raw),
    sessionId: (i) => i.session_id,
    cwd: (i) => i.cwd,
    lifecycle: (i): Lifecycle =>
      i.hook_event_name === 'SessionStart' ? 'start' : i.hook_event_name === 'SessionEnd' ? 'end' : undefined,
    respond: (i, s, _notes, o) => respondToGeminiHook(i, s, o),
  } satisfies HookProtocol<GeminiHookInput>,
  cursor: {
    label: 'Cursor',
    events: CURSOR_HOOK_EVENTS,
    parse: (raw) => CursorHookInput.safeParse(raw),
    sessionId: (i) => i.conversation_id,
    cwd: (i) => cursorCwd(i),
    lifecycle: (i): Lifecycle =>
      i.hook_event_name === 'sessionStart' ? 'start' : i.hook_event_name === 'sessionEnd' ? 'end' : undefined,
    respond: (i, s, _notes, o) => respondToCursorHook(i, s, o),
  } satisfies HookProtocol<CursorHookInput>,
};

/** The hook's default profile, as Claude Code's: the coding profile (the file is the unit of evidence). */
export const DEFAULT_AGENT_PROFILE = DEFAULT_HOOK_PROFILE;

const hookAgentUsage = (
  agent: AgentName,
) => `assistant-safety hook ${agent} [--state-dir DIR] [--rules FILE] [--targets bind|ignore]
                       [--profile NAME] [--shadow] [--redis URL] [--record DIR]
                       [--live URL] [--deadline-ms N]

The command ${AGENT_PROTOCOLS[agent].label} runs for its hook events (${AGENT_PROTOCOLS[agent].events.join(', ')}):
it reads the event's JSON on stdin, decides it on the session the event names (kept in
files between events) and answers in ${AGENT_PROTOCOLS[agent].label}'s hook output format. The options are
those of hook claude-code (see hook claude-code --help); the default profile is ${DEFAULT_AGENT_PROFILE}.

Exit codes: 0 answered (or nothing to say), 2 the hook itself failed: ${AGENT_PROTOCOLS[agent].label} then
refuses the call and shows the message.`;

/** Runs one hook event of `agent`; every failure is exit code 2 with the reason on stderr (the agent refuses). */
export function runAgentHook(
  agent: AgentName,
  argv: string[],
  io: CliIO,
  stdin?: () => Promise<string>,
): Promise<number> {
  return runHookEvent(AGENT_PROTOCOLS[agent] as HookProtocol<unknown>, hookAgentUsage(agent), argv, io, stdin);
}
