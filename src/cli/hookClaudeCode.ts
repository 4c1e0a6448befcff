import { ClaudeCodeHookInput, CLAUDE_CODE_HOOK_EVENTS } from '../hooks/ClaudeCodeHookInput.js';
import { respondToClaudeCodeHook } from '../hooks/respondToClaudeCodeHook.js';
import type { CliIO } from './Command.js';
import { runHookEvent, type HookProtocol } from './hookRun.js';

/*
 * `assistant-safety hook claude-code`: one Claude Code hook event per process. Kept apart from
 * the rest of the CLI (bin.ts starts it directly) so a hook process loads only the gate, the
 * classifier and the file store: it runs before and after every tool call.
 */

export const HOOK_CLAUDE_CODE_USAGE = `assistant-safety hook claude-code [--state-dir DIR] [--rules FILE] [--escalate CODES]
                                   [--targets bind|ignore] [--profile NAME] [--shadow]
                                   [--redis URL] [--record DIR] [--live URL] [--deadline-ms N]

The command Claude Code runs for its hook events (PreToolUse, PostToolUse,
PostToolUseFailure, PermissionDenied, Stop, SessionStart, SessionEnd,
UserPromptSubmit): it reads
the event's JSON on stdin, decides it on the session named by session_id (kept
in files between events) and answers in Claude Code's hook output format.

  --state-dir DIR   where sessions are kept (default $ASSISTANT_SAFETY_STATE_DIR,
                    else $XDG_STATE_HOME/assistant-safety/sessions, else
                    ~/.local/state/assistant-safety/sessions)
  --rules FILE      classifier rules (the createClassifier format): they win over
                    the coding-agent table; mcp__server__tool tools are classified here
  --escalate CODES  block reasons answered "ask" instead of "deny", comma-separated
                    (e.g. TARGET_NOT_VALIDATED,NO_VALIDATED_TARGET): approving supplies
                    the evidence the block asked for
  --targets MODE    bind (default): a write may only touch files read or found in the
                    session, and only a read of the file verifies it; ignore: by kind
  --profile NAME    coding (default: the file is the unit of evidence: edits in a
                    row, each file read or checked after its last edit before
                    Stop), interactive, detection or investigation
  --shadow          decide and record, block nothing (the mode comes from here, or
                    ASSISTANT_SAFETY_HOOK_MODE=shadow, never from a session file)
  --redis URL       keep the sessions in Redis (redis:// or rediss://), shared by every
                    machine using the same URL; the state folder keeps only the notes
                    of calls answered "ask"
  --record DIR      append each session's recording (JSON Lines) to DIR/<session>.jsonl
                    (default: the state folder's recordings/ folder)
  --live URL        also stream the recording to the app: the URL \`assistant-safety
                    serve\` printed, better without ?token= and with the token in
                    ASSISTANT_SAFETY_LIVE_TOKEN (a command line is readable by other
                    local users; a token given both ways must be the same)
  --deadline-ms N   the most one event may take, stdin and store included (default
                    5000): past it the hook exits 2 (the call is refused)

Exit codes: 0 answered (or nothing to say), 2 the hook itself failed: Claude Code
then refuses the tool call (PreToolUse) and shows the message.`;

const CLAUDE_CODE: HookProtocol<ClaudeCodeHookInput> = {
  label: 'Claude Code',
  events: CLAUDE_CODE_HOOK_EVENTS,
  parse: (raw) => ClaudeCodeHookInput.safeParse(raw),
  sessionId: (i) => i.session_id,
  cwd: (i) => i.cwd,
  lifecycle: (i) =>
    i.hook_event_name === 'SessionStart' ? 'start' : i.hook_event_name === 'SessionEnd' ? 'end' : undefined,
  respond: (i, s, notes, o) => respondToClaudeCodeHook(i, s, notes, o),
};

/**
 * Runs one hook event; every failure is exit code 2 with the reason on stderr, which Claude Code
 * treats as a refusal of the tool call (and shows the reason): a crash of the gate never allows.
 */
export function runClaudeCodeHook(
  argv: string[],
  io: CliIO,
  stdin?: () => Promise<string>,
  env?: NodeJS.ProcessEnv,
): Promise<number> {
  return runHookEvent(CLAUDE_CODE, HOOK_CLAUDE_CODE_USAGE, argv, io, stdin, true, env);
}
