import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { parseArgs } from 'node:util';
import { EXECUTION_PROFILES } from '../safety/SafetyContext.js';
import type { ExecutionProfile, SafetySession, TargetMode } from '../safety/SafetySessionTypes.js';
import { createCodingAgentClassifier } from '../presets/codingAgent.js';
import { defaultStateDir } from '../node/createFileSessionStore.js';
import { createHookRecording, fileHookSessions, redisHookSessions, type HookSessions } from '../hooks/hookSessions.js';
import type { AgentHookOptions } from '../hooks/agentHookCore.js';
import { CodexHookInput, CODEX_HOOK_EVENTS } from '../hooks/CodexHookInput.js';
import { GeminiHookInput, GEMINI_HOOK_EVENTS } from '../hooks/GeminiHookInput.js';
import { CursorHookInput, CURSOR_HOOK_EVENTS } from '../hooks/CursorHookInput.js';
import { respondToCodexHook } from '../hooks/respondToCodexHook.js';
import { respondToGeminiHook } from '../hooks/respondToGeminiHook.js';
import { cursorCwd, respondToCursorHook } from '../hooks/respondToCursorHook.js';
import { formatIssues, issuesOf } from '../core/Issue.js';
import type { CliIO } from './Command.js';

/*
 * `assistant-safety hook codex|gemini|cursor`: one hook event of Codex CLI, Gemini CLI or Cursor
 * per process, decided on the same sessions, rules and store as `hook claude-code`. All three
 * agents take exit code 2 (with the reason on stderr) as "refuse": every failure of the hook
 * itself ends that way, never as an answer that lets the call go.
 */

/** What the runner needs of one agent's protocol. */
interface AgentProtocol<I> {
  label: string;
  events: readonly string[];
  parse(raw: unknown): { success: true; data: I } | { success: false; error: unknown };
  sessionId(input: I): string;
  cwd(input: I): string;
  /** `start` sweeps expired sessions, `end` removes the session, before any decision. */
  lifecycle(input: I): 'start' | 'end' | undefined;
  respond(input: I, session: SafetySession, options: AgentHookOptions): unknown;
}

type Lifecycle = 'start' | 'end' | undefined;

/** The agents this command speaks. */
export type AgentName = 'codex' | 'gemini' | 'cursor';

const AGENT_PROTOCOLS: {
  codex: AgentProtocol<CodexHookInput>;
  gemini: AgentProtocol<GeminiHookInput>;
  cursor: AgentProtocol<CursorHookInput>;
} = {
  codex: {
    label: 'Codex CLI',
    events: CODEX_HOOK_EVENTS,
    parse: (raw) => CodexHookInput.safeParse(raw),
    sessionId: (i) => i.session_id,
    cwd: (i) => i.cwd,
    lifecycle: (i): Lifecycle =>
      i.hook_event_name === 'SessionStart' ? 'start' : i.hook_event_name === 'SessionEnd' ? 'end' : undefined,
    respond: (i, s, o) => respondToCodexHook(i, s, o),
  } satisfies AgentProtocol<CodexHookInput>,
  gemini: {
    label: 'Gemini CLI',
    events: GEMINI_HOOK_EVENTS,
    parse: (raw) => GeminiHookInput.safeParse(raw),
    sessionId: (i) => i.session_id,
    cwd: (i) => i.cwd,
    lifecycle: (i): Lifecycle =>
      i.hook_event_name === 'SessionStart' ? 'start' : i.hook_event_name === 'SessionEnd' ? 'end' : undefined,
    respond: (i, s, o) => respondToGeminiHook(i, s, o),
  } satisfies AgentProtocol<GeminiHookInput>,
  cursor: {
    label: 'Cursor',
    events: CURSOR_HOOK_EVENTS,
    parse: (raw) => CursorHookInput.safeParse(raw),
    sessionId: (i) => i.conversation_id,
    cwd: (i) => cursorCwd(i),
    lifecycle: (i): Lifecycle =>
      i.hook_event_name === 'sessionStart' ? 'start' : i.hook_event_name === 'sessionEnd' ? 'end' : undefined,
    respond: (i, s, o) => respondToCursorHook(i, s, o),
  } satisfies AgentProtocol<CursorHookInput>,
};

/** The hook's default profile, as Claude Code's: the coding profile (the file is the unit of evidence). */
export const DEFAULT_AGENT_PROFILE: ExecutionProfile = 'coding';
const KNOWN_PROFILES: readonly string[] = EXECUTION_PROFILES;
const DEFAULT_DEADLINE_MS = 5000;

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

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

class DeadlineError extends Error {}

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

/** Runs one hook event of `agent`; every failure is exit code 2 with the reason on stderr (the agent refuses). */
export async function runAgentHook(
  agent: AgentName,
  argv: string[],
  io: CliIO,
  stdin: () => Promise<string> = readStdin,
): Promise<number> {
  const protocol = AGENT_PROTOCOLS[agent] as AgentProtocol<unknown>;
  const fail = (message: string) => {
    io.err(`assistant-safety hook: ${message}`);
    return 2;
  };
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(hookAgentUsage(agent));
    return 0;
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'state-dir': { type: 'string' },
        rules: { type: 'string' },
        targets: { type: 'string', default: 'bind' },
        profile: { type: 'string', default: DEFAULT_AGENT_PROFILE },
        shadow: { type: 'boolean' },
        redis: { type: 'string' },
        record: { type: 'string' },
        live: { type: 'string' },
        'deadline-ms': { type: 'string' },
      },
    }));
  } catch (e) {
    return fail(`${(e as Error).message}\n\n${hookAgentUsage(agent)}`);
  }
  try {
    const targets = values.targets as TargetMode;
    if (targets !== 'bind' && targets !== 'ignore') return fail(`--targets must be bind or ignore, got "${targets}"`);
    const profile = values.profile as ExecutionProfile;
    if (!KNOWN_PROFILES.includes(profile))
      return fail(`--profile must be one of ${KNOWN_PROFILES.join(', ')}, got "${profile}"`);
    const envMode = process.env.ASSISTANT_SAFETY_HOOK_MODE;
    if (envMode !== undefined && envMode !== '' && envMode !== 'enforce' && envMode !== 'shadow')
      return fail(`ASSISTANT_SAFETY_HOOK_MODE must be enforce or shadow, got "${envMode}"`);
    const mode = values.shadow === true || envMode === 'shadow' ? 'shadow' : 'enforce';
    const deadlineMs = values['deadline-ms'] === undefined ? DEFAULT_DEADLINE_MS : Number(values['deadline-ms']);
    if (!Number.isInteger(deadlineMs) || deadlineMs <= 0)
      return fail(`--deadline-ms must be a positive whole number of milliseconds, got "${values['deadline-ms']}"`);
    if (values.redis !== undefined && !/^rediss?:\/\/./.test(values.redis))
      return fail(`--redis must be a redis:// or rediss:// URL, got "${values.redis}"`);
    if (values.live !== undefined && values.redis !== undefined) return fail('--live and --redis: give one of them');
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
        if (typeof event === 'string' && !protocol.events.includes(event)) return 0;
        const parsed = protocol.parse(raw);
        if (!parsed.success)
          return fail(
            `the hook input does not match ${protocol.label}'s hook schema: ${formatIssues(issuesOf(parsed.error as never))}; the call is refused`,
          );
        const input = parsed.data;
        const sessionId = protocol.sessionId(input);
        const dir = values['state-dir'] ?? defaultStateDir();
        const recording = createHookRecording({
          dir: values.record ?? join(dir, 'recordings'),
          sessionId,
          ...(values.live !== undefined && { live: values.live }),
        });
        const settings = {
          targets,
          profile,
          mode,
          onWarning: (m: string) => io.err(`assistant-safety: ${m}`),
        } as const;
        const sessions: HookSessions =
          values.redis !== undefined
            ? await redisHookSessions(values.redis, dir, { ...settings, recorder: recording.recorder })
            : fileHookSessions(dir, { ...settings, recorder: recording.recorder });
        try {
          const lifecycle = protocol.lifecycle(input);
          if (lifecycle === 'start') {
            await sessions.sweep();
            return 0;
          }
          if (lifecycle === 'end') {
            await sessions.delete(sessionId);
            return 0;
          }
          const cwd = protocol.cwd(input);
          const classify = createCodingAgentClassifier({ rules, cwd });
          const output = await sessions.withSession(sessionId, (s, notes) => {
            const answer = protocol.respond(input, s, {
              classify,
              isNewFile: (path, base) => !existsSync(isAbsolute(path) ? path : join(base, path)),
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
