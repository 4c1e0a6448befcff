import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { parseArgs } from 'node:util';
import { BlockReasonCode } from '../safety/toolKind.js';
import { EXECUTION_PROFILES } from '../safety/SafetyContext.js';
import type { ExecutionProfile, TargetMode } from '../safety/SafetySessionTypes.js';
import { ClaudeCodeHookInput, CLAUDE_CODE_HOOK_EVENTS } from '../hooks/ClaudeCodeHookInput.js';
import { respondToClaudeCodeHook } from '../hooks/respondToClaudeCodeHook.js';
import { createCodingAgentClassifier } from '../presets/codingAgent.js';
import { defaultStateDir } from '../node/createFileSessionStore.js';
import { createHookRecording, fileHookSessions, redisHookSessions, type HookSessions } from '../hooks/hookSessions.js';
import { formatIssues, issuesOf } from '../core/Issue.js';
import type { CliIO } from './Command.js';

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
  --live URL        also stream the recording to the app (the URL \`assistant-safety
                    serve\` printed, with its token)
  --deadline-ms N   the most one event may take, stdin and store included (default
                    5000): past it the hook exits 2 (the call is refused)

Exit codes: 0 answered (or nothing to say), 2 the hook itself failed: Claude Code
then refuses the tool call (PreToolUse) and shows the message.`;

const DEFAULT_DEADLINE_MS = 5000;

/** Reads all of standard input. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Thrown when an event outlives its deadline. */
class DeadlineError extends Error {}

/**
 * Runs `work` within `ms`: past it, rejects with a {@link DeadlineError} (and lets go of stdin,
 * which would otherwise keep the process alive). The file store reads without blocking (a FIFO
 * is refused, not waited on), so every wait of an event is one this timer can interrupt.
 */
function withDeadline<T>(work: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      process.stdin.destroy();
      reject(new DeadlineError(what()));
    }, ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Runs one hook event; every failure is exit code 2 with the reason on stderr, which Claude Code
 * treats as a refusal of the tool call (and shows the reason): a crash of the gate never allows.
 */
export async function runClaudeCodeHook(argv: string[], io: CliIO, stdin: () => Promise<string> = readStdin) {
  const fail = (message: string) => {
    io.err(`assistant-safety hook: ${message}`);
    return 2;
  };
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(HOOK_CLAUDE_CODE_USAGE);
    return 0;
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'state-dir': { type: 'string' },
        rules: { type: 'string' },
        escalate: { type: 'string' },
        targets: { type: 'string', default: 'bind' },
        profile: { type: 'string', default: 'coding' },
        shadow: { type: 'boolean' },
        redis: { type: 'string' },
        record: { type: 'string' },
        live: { type: 'string' },
        'deadline-ms': { type: 'string' },
      },
    }));
  } catch (e) {
    return fail(`${(e as Error).message}\n\n${HOOK_CLAUDE_CODE_USAGE}`);
  }
  try {
    const targets = values.targets as TargetMode;
    if (targets !== 'bind' && targets !== 'ignore') return fail(`--targets must be bind or ignore, got "${targets}"`);
    const profile = values.profile as ExecutionProfile;
    if (!EXECUTION_PROFILES.includes(profile))
      return fail(`--profile must be one of ${EXECUTION_PROFILES.join(', ')}, got "${profile}"`);
    const escalate: BlockReasonCode[] = [];
    for (const code of values.escalate
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? []) {
      const parsed = BlockReasonCode.safeParse(code);
      if (!parsed.success)
        return fail(`--escalate: unknown block reason "${code}" (one of ${BlockReasonCode.options.join(', ')})`);
      escalate.push(parsed.data);
    }
    const envMode = process.env.ASSISTANT_SAFETY_HOOK_MODE;
    if (envMode !== undefined && envMode !== '' && envMode !== 'enforce' && envMode !== 'shadow')
      return fail(`ASSISTANT_SAFETY_HOOK_MODE must be enforce or shadow, got "${envMode}"`);
    const mode = values.shadow === true || envMode === 'shadow' ? 'shadow' : 'enforce';
    const deadlineMs = values['deadline-ms'] === undefined ? DEFAULT_DEADLINE_MS : Number(values['deadline-ms']);
    if (!Number.isInteger(deadlineMs) || deadlineMs <= 0)
      return fail(`--deadline-ms must be a positive whole number of milliseconds, got "${values['deadline-ms']}"`);
    if (values.redis !== undefined && !/^rediss?:\/\/./.test(values.redis))
      return fail(`--redis must be a redis:// or rediss:// URL, got "${values.redis}"`);
    if (values.live !== undefined && values.redis !== undefined)
      return fail(
        '--live and --redis: sessions in Redis are followed live through `assistant-safety serve --redis URL`; give one of them',
      );
    if (values.live !== undefined && !URL.canParse(values.live))
      return fail(`--live must be the URL \`assistant-safety serve\` printed, got "${values.live}"`);
    let rules: unknown;
    if (values.rules !== undefined) {
      try {
        rules = JSON.parse(readFileSync(values.rules, 'utf8'));
      } catch (e) {
        return fail(`--rules ${values.rules}: ${(e as Error).message}`);
      }
    }

    let stage = 'reading the hook input on stdin';
    return await withDeadline(
      (async () => {
        const text = await stdin();
        stage = 'deciding on the session';
        let raw: unknown;
        try {
          raw = JSON.parse(text);
        } catch (e) {
          return fail(`the hook input on stdin is not JSON (${(e as Error).message}); the call is refused`);
        }
        const event = (raw as { hook_event_name?: unknown } | null)?.hook_event_name;
        // An event the gate does not handle (installed for more events than it needs): nothing to say.
        if (typeof event === 'string' && !(CLAUDE_CODE_HOOK_EVENTS as readonly string[]).includes(event)) return 0;
        const parsed = ClaudeCodeHookInput.safeParse(raw);
        if (!parsed.success)
          return fail(
            `the hook input does not match Claude Code's hook schema: ${formatIssues(issuesOf(parsed.error))}`,
          );
        const input = parsed.data;

        const dir = values['state-dir'] ?? defaultStateDir();
        const recording = createHookRecording({
          dir: values.record ?? join(dir, 'recordings'),
          sessionId: input.session_id,
          ...(values.live !== undefined && { live: values.live }),
        });
        const session = { targets, profile, mode, onWarning: (m: string) => io.err(`assistant-safety: ${m}`) } as const;
        const sessions: HookSessions =
          values.redis !== undefined
            ? await redisHookSessions(values.redis, dir, { ...session, recorder: recording.recorder })
            : fileHookSessions(dir, { ...session, recorder: recording.recorder });
        try {
          if (input.hook_event_name === 'SessionStart') {
            await sessions.sweep();
            return 0;
          }
          if (input.hook_event_name === 'SessionEnd') {
            await sessions.delete(input.session_id);
            return 0;
          }
          const classify = createCodingAgentClassifier({ rules, cwd: input.cwd });
          const output = await sessions.withSession(input.session_id, (s, notes) => {
            const answer = respondToClaudeCodeHook(input, s, notes, {
              classify,
              escalate,
              isNewFile: (path, cwd) => !existsSync(isAbsolute(path) ? path : join(cwd, path)),
            });
            recording.noteAttempt(notes);
            return answer;
          });
          stage = 'writing the recording';
          await recording.commit((m) => io.err(`assistant-safety: ${m}`));
          if (output !== undefined) io.out(JSON.stringify(output));
          return 0;
        } finally {
          await sessions.close();
        }
      })(),
      deadlineMs,
      () => `no answer within ${deadlineMs} ms (${stage}); the call is refused`,
    );
  } catch (e) {
    if (e instanceof DeadlineError) return fail(e.message);
    return fail(`${(e as Error)?.message ?? String(e)}; the call is refused`);
  }
}
