import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { parseArgs } from 'node:util';
import { BlockReasonCode } from '../safety/toolKind.js';
import { EXECUTION_PROFILES } from '../safety/SafetyContext.js';
import type { ExecutionProfile, SafetySession, TargetMode } from '../safety/SafetySessionTypes.js';
import {
  CODING_AGENT_SESSION,
  createCodingAgentClassifier,
  type CodingAgentClassifier,
} from '../presets/codingAgent.js';
import { defaultStateDir, type SessionNotes } from '../node/createFileSessionStore.js';
import { createHookRecording, fileHookSessions, redisHookSessions, type HookSessions } from '../hooks/hookSessions.js';
import { formatIssues, issuesOf } from '../core/Issue.js';
import { askProblem, blockReasonProblem } from '../safety/blockReasons.js';
import { argumentError, type CliIO } from './Command.js';
import { MAX_TIMER_MS } from '../core/timerDelay.js';
import { liveOptionOf, type LiveOption } from './tokenEnv.js';
import { HOOK_MODE_ENV } from './hookEnv.js';

/*
 * One hook event per process, for every coding agent the CLI speaks (Claude Code, Codex CLI,
 * Gemini CLI, Cursor): the options, the deadline, reading the event, the session store and the
 * recording are the same; an agent's protocol says how to read its event and answer it. Every
 * failure of the hook itself is exit code 2 with the reason on stderr, which each of these agents
 * takes as a refusal of the call: a crash of the gate never allows. Agent-neutral on purpose: a
 * hook process loads only its own agent's modules.
 */

/** What the runner needs of one agent's hook protocol. */
export interface HookProtocol<I> {
  /** The agent's name in messages (`Claude Code`). */
  label: string;
  /** The events the gate handles; any other is answered with nothing (exit 0). */
  events: readonly string[];
  parse(raw: unknown): { success: true; data: I } | { success: false; error: unknown };
  sessionId(input: I): string;
  cwd(input: I): string;
  /** `start` sweeps expired sessions, `end` removes the session, before any decision. */
  lifecycle(input: I): 'start' | 'end' | undefined;
  respond(input: I, session: SafetySession, notes: SessionNotes, options: HookDecisionOptions): unknown;
}

/** What an agent's answer is decided with, besides the event and the session. */
interface HookDecisionOptions {
  classify: CodingAgentClassifier;
  /** Block reasons answered "ask" instead of "deny" (agents that can ask). */
  escalate: BlockReasonCode[];
  isNewFile: (path: string, cwd: string) => boolean;
}

/** The hook's default profile: the coding profile (the file is the unit of evidence). */
export const DEFAULT_HOOK_PROFILE: ExecutionProfile = CODING_AGENT_SESSION.profile;
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

/** The hook command's options, checked (the rules file read, not yet made into a classifier). */
interface HookOptions {
  stateDir: string | undefined;
  /** The rules file's JSON, when `--rules` was given. */
  rules: unknown;
  escalate: BlockReasonCode[];
  targets: TargetMode;
  profile: ExecutionProfile;
  /** `--shadow` (the environment's mode is the hook's to read, at each event). */
  shadow: boolean;
  deadlineMs: number;
  redis: string | undefined;
  record: string | undefined;
  /** `--live URL`, its token from the URL or from ASSISTANT_SAFETY_LIVE_TOKEN. */
  live: LiveOption | undefined;
}

/** A wrong hook option, in one line: `argument` when the command line itself is wrong (an unknown option). */
export class HookOptionError extends Error {
  override name = 'HookOptionError';
  constructor(
    message: string,
    readonly argument = false,
  ) {
    super(message);
  }
}

/** The option table (`escalates`: the agent takes `--escalate`, one that can ask a person). */
function optionTable(escalates: boolean) {
  return {
    'state-dir': { type: 'string' },
    rules: { type: 'string' },
    ...(escalates && { escalate: { type: 'string' as const } }),
    targets: { type: 'string', default: CODING_AGENT_SESSION.targets },
    profile: { type: 'string', default: DEFAULT_HOOK_PROFILE },
    shadow: { type: 'boolean' },
    redis: { type: 'string' },
    record: { type: 'string' },
    live: { type: 'string' },
    'deadline-ms': { type: 'string' },
  } as const;
}

/**
 * Parses and checks a hook command's options as every hook event does, and `hook install` before
 * it writes them into an agent's settings: a wrong option there would refuse every call. Reads
 * the rules file (relative to the current folder); {@link hookClassifier} checks it is rules.
 * The live token may come from `env` (ASSISTANT_SAFETY_LIVE_TOKEN).
 * Throws a {@link HookOptionError} naming what is wrong, in one line. `tokens` says where each
 * option stands in `argv`.
 *
 * @example
 * parseHookOptions(['--targets', 'ignore'], true).options.targets; // 'ignore'
 * parseHookOptions(['--rulez', 'r.json'], true); // throws "unknown option --rulez (did you mean --rules?)"
 */
export function parseHookOptions(argv: string[], escalates: boolean, env: NodeJS.ProcessEnv = process.env) {
  const table = optionTable(escalates);
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: table, tokens: true });
  } catch (e) {
    const known = Object.keys(table)
      .map((o) => `--${o}`)
      .join(' ');
    throw new HookOptionError(argumentError(e, known) ?? (e as Error).message, true);
  }
  const values = parsed.values as { [name: string]: string | boolean | undefined; shadow?: boolean };
  const text = (name: string) => values[name] as string | undefined;
  const targets = text('targets') as TargetMode;
  if (targets !== 'bind' && targets !== 'ignore')
    throw new HookOptionError(`--targets must be bind or ignore, got "${targets}"`);
  const profile = text('profile') as ExecutionProfile;
  if (!EXECUTION_PROFILES.includes(profile))
    throw new HookOptionError(`--profile must be one of ${EXECUTION_PROFILES.join(', ')}, got "${profile}"`);
  const escalate: BlockReasonCode[] = [];
  for (const code of (
    text('escalate')
      ?.split(',')
      .map((s) => s.trim()) ?? []
  ).filter(Boolean)) {
    const problem = blockReasonProblem(code) ?? askProblem(code as BlockReasonCode);
    if (problem !== undefined) throw new HookOptionError(`--escalate: ${problem}`);
    escalate.push(code as BlockReasonCode);
  }
  const deadline = text('deadline-ms');
  const deadlineMs = deadline === undefined ? DEFAULT_DEADLINE_MS : Number(deadline);
  if (!Number.isInteger(deadlineMs) || deadlineMs <= 0 || deadlineMs > MAX_TIMER_MS)
    throw new HookOptionError(
      `--deadline-ms must be a positive whole number of milliseconds up to ${MAX_TIMER_MS}, got "${deadline}"`,
    );
  const redis = text('redis');
  const live = text('live');
  if (redis !== undefined && !/^rediss?:\/\/./.test(redis))
    throw new HookOptionError(`--redis must be a redis:// or rediss:// URL, got "${redis}"`);
  if (live !== undefined && redis !== undefined)
    throw new HookOptionError(
      '--live and --redis: sessions in Redis are followed live through `assistant-safety serve --redis URL`; give one of them',
    );
  const liveOption = live === undefined ? undefined : liveOptionOf(live, env);
  if (liveOption !== undefined && 'problem' in liveOption) throw new HookOptionError(`--live: ${liveOption.problem}`);
  let rules: unknown;
  const rulesFile = text('rules');
  if (rulesFile !== undefined) {
    try {
      rules = JSON.parse(readFileSync(rulesFile, 'utf8'));
    } catch (e) {
      throw new HookOptionError(`--rules ${rulesFile}: ${(e as Error).message}`);
    }
  }
  const options: HookOptions = {
    stateDir: text('state-dir'),
    rules,
    escalate,
    targets,
    profile,
    shadow: values.shadow === true,
    deadlineMs,
    redis,
    record: text('record'),
    live: liveOption,
  };
  return { options, tokens: parsed.tokens };
}

/**
 * The classifier a hook decides with: the coding-agent table under the rules file's rules.
 * Throws when the rules are not rules (a ClassifierRulesError naming the path inside them).
 *
 * @example
 * hookClassifier({ tools: { mcp__ci__deploy: 'read' } })('mcp__ci__deploy').kind; // 'read'
 */
export function hookClassifier(rules: unknown, cwd?: string): CodingAgentClassifier {
  return createCodingAgentClassifier({ rules, ...(cwd !== undefined && { cwd }) });
}

/**
 * Runs one hook event of an agent: options checked (each bad one named in one line, exit 2), the
 * event read from stdin within the deadline, decided on its session (files or Redis) and recorded.
 * `escalates` says whether the agent takes `--escalate` (one that can ask a person). `env` is the
 * agent's environment, where the live token (ASSISTANT_SAFETY_LIVE_TOKEN) and the mode
 * (ASSISTANT_SAFETY_HOOK_MODE) come from: `hook serve` passes the hook command's.
 */
export async function runHookEvent<I>(
  protocol: HookProtocol<I>,
  usage: string,
  argv: string[],
  io: CliIO,
  stdin: () => Promise<string> = readStdin,
  escalates = false,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const fail = (message: string) => {
    io.err(`assistant-safety hook: ${message}`);
    return 2;
  };
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(usage);
    return 0;
  }
  let options: HookOptions;
  try {
    ({ options } = parseHookOptions(argv, escalates, env));
  } catch (e) {
    if (!(e instanceof HookOptionError)) return fail(refusedFor(e));
    // One line, not the usage: the agent shows this text to the person as the refusal's reason.
    const command = /^assistant-safety (hook \S+)/.exec(usage)?.[1] ?? 'hook';
    return fail(e.argument ? `${e.message}; see assistant-safety ${command} --help` : e.message);
  }
  try {
    const { targets, profile, escalate, deadlineMs, rules } = options;
    if (options.live?.warning) io.err(`assistant-safety hook: ${options.live.warning}`);
    // The agent's environment (`env`), not necessarily this process's: hook serve runs events of many agents.
    const envMode = env[HOOK_MODE_ENV];
    if (envMode !== undefined && envMode !== '' && envMode !== 'enforce' && envMode !== 'shadow')
      return fail(`${HOOK_MODE_ENV} must be enforce or shadow, got "${envMode}"`);
    const mode = options.shadow || envMode === 'shadow' ? 'shadow' : 'enforce';

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
        const dir = options.stateDir ?? defaultStateDir();
        const recording = createHookRecording({
          dir: options.record ?? join(dir, 'recordings'),
          sessionId,
          ...(options.live !== undefined && { live: { url: options.live.url, token: options.live.token } }),
        });
        const settings = {
          targets,
          profile,
          mode,
          onWarning: (m: string) => io.err(`assistant-safety: ${m}`),
        } as const;
        const sessions: HookSessions =
          options.redis !== undefined
            ? await redisHookSessions(options.redis, dir, { ...settings, recorder: recording.recorder })
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
          const classify = hookClassifier(rules, protocol.cwd(input));
          const isNewFile = (path: string, cwd: string) => !existsSync(isAbsolute(path) ? path : join(cwd, path));
          const output = await sessions.withSession(sessionId, (s, notes) => {
            const answer = protocol.respond(input, s, notes, { classify, escalate, isNewFile });
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
    return fail(refusedFor(e));
  }
}

/** An error's message, then that the call is refused (one sentence: a message's own full stop is dropped). */
function refusedFor(e: unknown): string {
  let message: string;
  try {
    message = (e as Error)?.message ?? String(e);
  } catch {
    message = 'the hook failed';
  }
  return `${message.replace(/[.\s]+$/, '')}; the call is refused`;
}
