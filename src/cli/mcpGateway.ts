import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ClassifierRulesError, createClassifier } from '../harness/classifier.js';
import type { SessionRecorder } from '../safety/RecordingEntry.js';
import { createSafetySession } from '../safety/SafetySession.js';
import type { SafetySessionOptions } from '../safety/SafetySessionTypes.js';
import { createFileRecorder, type FileRecorder } from '../node/fileRecorder.js';
import { createLiveRecorder, type LiveRecorder } from '../node/createLiveRecorder.js';
import { UsageError, type CliIO, type Command } from './Command.js';
import { untilStopped } from './untilStopped.js';
import { joinNegativeValues, wholeNumberOption } from './numberOptions.js';
import { MAX_TIMER_MS } from '../core/timerDelay.js';
import { checkRedisServer, lostSessionForCli, redisFailure } from '../redis/cliSupport.js';
import { GATEWAY_NUMBER_FLAGS, GATEWAY_OPTIONS, gatewayOptionsOf } from './gatewayOptions.js';
import { gatewayTokenOf, withoutTokens } from './tokenEnv.js';
import { GATEWAY_TOKEN_ENV, LIVE_TOKEN_ENV } from './tokenNames.js';

/** The gateway's options: those `mcp-config` passes on, and those of `--listen`. */
const OPTIONS = {
  ...GATEWAY_OPTIONS,
  listen: { type: 'string' },
  token: { type: 'string' },
  'max-sessions': { type: 'string' },
  'idle-timeout-ms': { type: 'string' },
} as const;

/** The options that take a number (a negative one is read as their value, to be refused as out of range). */
const NUMBER_FLAGS = [...GATEWAY_NUMBER_FLAGS, '--max-sessions', '--idle-timeout-ms'];

/** The most MCP sessions `--listen` may hold open: each runs a server process of its own. */
const MAX_SESSIONS = 100_000;

/** The install command printed when the optional MCP SDK is missing. */
const MCP_SDK_INSTALL = 'npm install @modelcontextprotocol/sdk';

/** Splits `[options] -- COMMAND [ARGS...]`. */
export function splitAtDashes(argv: string[]): { options: string[]; command: string[] } {
  const at = argv.indexOf('--');
  return at === -1 ? { options: argv, command: [] } : { options: argv.slice(0, at), command: argv.slice(at + 1) };
}

/** Reads and validates a rules file; prints what is wrong (with the path inside it) and returns undefined when bad. */
export function readRulesFile(path: string, io: CliIO, command: string): unknown {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    io.err(`${command}: --rules ${path}: ${(e as Error).message}`);
    return undefined;
  }
  try {
    createClassifier(json); // validates, naming the path, the value found and what is allowed
  } catch (e) {
    if (!(e instanceof ClassifierRulesError)) throw e;
    io.err(`${command}: --rules ${path}: ${e.message}`);
    return undefined;
  }
  return json;
}

/**
 * The server to run: after `--`, or `--server-command` with `--server-arg`s (for tools that
 * keep `--` for themselves, such as the MCP Inspector). Throws a usage error naming the way
 * when there is none, or when leftovers look like a server given without `--`.
 */
export function serverOf(
  argv: readonly string[],
  split: { command: string[] },
  values: { 'server-command'?: string | undefined; 'server-arg'?: string[] | undefined },
  positionals: readonly string[],
  name: string,
): string[] {
  if (values['server-command'] !== undefined) {
    if (split.command.length)
      throw new UsageError('give the server either after -- or with --server-command, not both');
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    return [values['server-command'], ...(values['server-arg'] ?? [])];
  }
  if (values['server-arg'] !== undefined) throw new UsageError('--server-arg goes with --server-command');
  if (positionals.length) throw new UsageError(forgotDashes(argv, positionals[0]!, name));
  if (split.command.length === 0)
    throw new UsageError(
      `the MCP server to run goes after --: ${name} [OPTIONS] -- COMMAND [ARGS...] (or --server-command COMMAND --server-arg ARG ...)`,
    );
  return split.command;
}

/** The hint for a server given without `--` (`mcp-gateway npx -y srv`). */
function forgotDashes(argv: readonly string[], first: string, name: string): string {
  const at = argv.indexOf(first);
  const options = argv.slice(0, Math.max(at, 0));
  const server = argv.slice(Math.max(at, 0));
  return `"${first}" looks like the MCP server's command: it goes after --: assistant-safety ${name} ${[...options, '--', ...server].join(' ')}`;
}

/** Imports the MCP subpath, or prints how to install the SDK it needs and returns undefined. */
export async function importMcp(io: CliIO, command: string): Promise<typeof import('../mcp/index.js') | undefined> {
  try {
    return await import('../mcp/index.js');
  } catch (e) {
    const error = e as { code?: string; message?: string };
    if (error.code === 'ERR_MODULE_NOT_FOUND' && error.message?.includes('@modelcontextprotocol/sdk')) {
      io.err(`${command}: needs the MCP SDK, an optional peer dependency: run \`${MCP_SDK_INSTALL}\``);
      return undefined;
    }
    throw e;
  }
}

export const mcpGatewayCommand: Command = {
  name: 'mcp-gateway',
  summary: 'serve an MCP server over stdio with every tool call gated by the safety machine',
  usage: `assistant-safety mcp-gateway [--rules FILE] [--name-verbs] [--trust-annotations all|destructive-only|none]
                                     [--record FILE] [--live URL] [--cancel-grace-ms MS]
                                     [--targets ignore|bind] [--shadow] [--escalate CODE,...]
                                     [--listen HOST:PORT [--token TOKEN] [--max-sessions N] [--idle-timeout-ms MS]]
                                     [--redis URL | --redis-cluster URL[,URL...]
                                      --session ID [--redis-prefix P] [--orphan-after-ms MS]
                                      [--redis-durability primary|replicated]]
                                     -- COMMAND [ARGS...]
assistant-safety mcp-gateway [OPTIONS] --server-command COMMAND [--server-arg ARG]...

Starts the MCP server COMMAND ARGS as a child process over stdio and serves MCP
on this process's stdin/stdout: a transparent proxy (tools, resources, prompts,
notifications, progress, cancellation) in which every tools/call goes through
one safety session. A blocked call never reaches the server: the client gets a
tool result with isError: true whose text is the FSMBlockedError envelope.

The server runs in its own process group; when the client disconnects, or on
SIGINT/SIGTERM, the whole group ends: stdin closed, SIGTERM after 1 s, SIGKILL
after 1 s more.

Classification: the rules win; then the tool's MCP annotations (readOnlyHint:
true is a read, anything else a write, also with no annotations). Each tool's
annotations and input schema are pinned when first listed: a tool whose
definition changes later is a write (unless a rule names it).

  --rules FILE    classifier rules (JSON, the createClassifier format), validated on load
  --name-verbs    opt in to the name-verb heuristic for tools without annotations
                  (get_, list_, read_, search_... as reads; see docs/classification.md)
  --trust-annotations all|destructive-only|none
                  how far the server's annotations are believed (default all):
                  destructive-only ignores readOnlyHint: true; none ignores them all,
                  so every tool needs a rules entry (classify --check lists the missing)
  --cancel-grace-ms MS
                  how long a write the client cancelled stays in flight while the server
                  has not answered (default 30000); then its outcome is unknown
  --targets bind  a write may only touch targets a read or discovery validated (the rules
                  name each tool's target arguments; docs/targets.md); default ignore
  --shadow        shadow mode: nothing is blocked; what would have been is recorded
  --escalate CODE,...
                  block reasons to put to the person behind the client (MCP elicitation,
                  when the client supports it), e.g. NO_VALIDATED_TARGET,TARGET_NOT_VALIDATED:
                  an accept attests the missing evidence and the call is asked again
  --server-command COMMAND, --server-arg ARG
                  the server without --, for tools that keep -- for themselves
  --record FILE   append the session's recording (JSON Lines) to FILE
  --live URL      stream the session to a running \`assistant-safety serve\`: its printed URL,
                  better without ?token= and with the token in ${LIVE_TOKEN_ENV}
                  (a command line is readable by other local users; a token given both
                  ways must be the same)
  --listen HOST:PORT
                  serve MCP over Streamable HTTP at http://HOST:PORT/mcp instead of stdio:
                  one server process and one safety session per MCP session; clients send
                  Authorization: Bearer TOKEN (printed on stderr); stops on Ctrl-C
  --token TOKEN   the bearer token for --listen (default: ${GATEWAY_TOKEN_ENV}, else
                  a random one); better in ${GATEWAY_TOKEN_ENV} alone: a command line
                  is readable by other local users
  --max-sessions N
                  most MCP sessions open at once over --listen (default 16); more get 503
  --idle-timeout-ms MS
                  an MCP session with no request for MS ends, server and all (default 600000)
  --redis URL --session ID
                  keep the safety session ID in Redis (needs ioredis): every decision is saved
                  before the call reaches the server, so a restarted or crashed gateway loses
                  no write in flight; recordings go to the session's Redis Stream (serve --redis);
                  with --targets and --shadow (give every gateway on the session the same)
  --redis-cluster URL[,URL...] --session ID
                  the same in a Redis Cluster: some of its nodes, comma-separated (the rest are
                  found from them); the session lives on the primary that owns its slot
  --redis-prefix P
                  the key prefix (default assistant-safety:)
  --orphan-after-ms MS
                  a call left in flight by a gateway that died is ended as an unknown outcome
                  (a write must then be verified) once its lease runs out: MS after the
                  gateway's last renewal (default 30000; from 30 to 86400000)
  --redis-durability primary|replicated
                  when a decision counts as saved (with --redis or --redis-cluster): primary
                  (the default) once the primary has it, which a failover before a replica
                  copied it loses; replicated once a replica has it too (WAIT 1 within the
                  call's deadline): a call whose decision no replica took in time does not run,
                  and a gateway whose first save none took does not start

The server does not inherit ${LIVE_TOKEN_ENV} nor ${GATEWAY_TOKEN_ENV}.
Logs go to stderr; stdout is the protocol. Needs ${MCP_SDK_INSTALL}.
Exit codes: 0 the client disconnected, 1 the server exited, 2 bad arguments or
the server could not start.`,
  async run(argv, io) {
    const split = splitAtDashes(argv);
    let parsed;
    try {
      parsed = parseArgs({
        args: joinNegativeValues(split.options, NUMBER_FLAGS),
        allowPositionals: true,
        options: OPTIONS,
      });
    } catch (e) {
      // `mcp-gateway npx -y srv`: the server's own options read as ours.
      const option = /'(-[^' =]+)/.exec((e as Error).message)?.[1];
      const code = (e as { code?: string }).code;
      if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option && !argv.includes('--') && !option.startsWith('--'))
        throw new UsageError(
          `unknown option ${option}: ${forgotDashes(argv, firstNonOption(argv, option), 'mcp-gateway')}`,
        );
      throw e;
    }
    const { values, positionals } = parsed;
    const [command, ...args] = serverOf(argv, split, values, positionals, 'mcp-gateway');
    const checked = gatewayOptionsOf(values);
    const { cancelGraceMs, redis } = checked;
    const trustAnnotations = checked.trustAnnotations ?? 'all';
    const escalate = checked.escalate ?? [];
    const sessionOptions: SafetySessionOptions = {
      ...(checked.targets === 'bind' && { targets: 'bind' as const }),
      ...(checked.shadow && { mode: 'shadow' as const }),
    };
    const maxSessions = wholeNumberOption(values['max-sessions'], '--max-sessions', 1, MAX_SESSIONS);
    const idleTimeoutMs = wholeNumberOption(values['idle-timeout-ms'], '--idle-timeout-ms', 1, MAX_TIMER_MS);
    const log = (line: string) => io.err(`mcp-gateway: ${line}`);
    if (checked.live?.warning) log(checked.live.warning);

    let rules: unknown;
    if (values.rules !== undefined) {
      rules = readRulesFile(values.rules, io, 'mcp-gateway');
      if (rules === undefined) return 2;
    }
    // Binding checks the targets rules name; with none named it changes nothing, which should not pass in silence.
    if (checked.targets === 'bind' && !namesTargets(rules))
      log(
        `--targets bind: ${values.rules === undefined ? 'no --rules' : `no rule in ${values.rules}`} names a write's target arguments ("targets"), so no call has targets to bind and writes are gated as without it (docs/targets.md)`,
      );
    let listen: { host: string; port: number } | undefined;
    let givenToken: string | undefined;
    if (values.listen !== undefined) {
      const m = /^(.+):(\d{1,5})$/.exec(values.listen);
      const port = Number(m?.[2]);
      if (!m || port > 65535) throw new UsageError(`--listen: expected HOST:PORT, got "${values.listen}"`);
      listen = { host: m[1]!, port };
      const token = gatewayTokenOf(values.token);
      if ('problem' in token) throw new UsageError(token.problem);
      if (token.warning) log(token.warning);
      givenToken = token.token;
    } else {
      for (const flag of ['token', 'max-sessions', 'idle-timeout-ms'] as const)
        if (values[flag] !== undefined) throw new UsageError(`--${flag} goes with --listen`);
    }
    const mcp = await importMcp(io, 'mcp-gateway');
    if (!mcp) return 2;
    let sharedSession: import('../redis/index.js').RedisGatewaySession | undefined;
    if (redis !== undefined) {
      const redisModule = await importRedis(io);
      if (!redisModule) return 2;
      // A wrong password, database or a Cluster node would otherwise show only once a call is made, or never.
      const problem = await checkRedisServer(redis.target);
      if (problem) {
        log(`cannot start: ${problem.message}`);
        return 2;
      }
      let lastRedisError: string | undefined;
      try {
        sharedSession = redisModule.createRedisGatewaySession({
          redis: {
            ...(redis.target.url !== undefined ? { url: redis.target.url } : { cluster: redis.target.cluster }),
            streams: true,
            worker: `mcp-gateway:${process.pid}`,
            ...(redis.keyPrefix !== undefined && { keyPrefix: redis.keyPrefix }),
            ...(redis.durability !== undefined && { durability: redis.durability }),
            // Every gateway on the session should be started with the same --targets and --shadow:
            // they apply to the session each save restores.
            session: sessionOptions,
            // Once per message until another one comes: a server that is down repeats itself every retry.
            onError: (e) => {
              if (e.message === lastRedisError) return;
              lastRedisError = e.message;
              log(`redis: ${e.message}`);
            },
          },
          sessionId: redis.session,
          ...(redis.orphanAfterMs !== undefined && { orphanAfterMs: redis.orphanAfterMs }),
        });
      } catch (e) {
        // An option the session refuses (a --session id too long): the options are the user's.
        if (e instanceof TypeError) throw new UsageError(e.message);
        throw e;
      }
    }

    // The server is another program: the tokens given to the gateway are not its to read.
    const serverEnv = withoutTokens();
    let file: FileRecorder | undefined;
    let live: LiveRecorder | undefined;
    try {
      if (values.record !== undefined) file = createFileRecorder(values.record);
    } catch (e) {
      io.err(`mcp-gateway: --record ${values.record}: ${(e as Error).message}`);
      return 2;
    }
    if (checked.live !== undefined) {
      live = createLiveRecorder({
        url: checked.live!.url,
        token: checked.live!.token,
        ...(file && { fallback: file }),
        name: `mcp-gateway ${[command, ...args].join(' ')}`.slice(0, 120),
        onError: (e) => log(`live: ${e.message}`),
      });
    }
    const recorder: SessionRecorder | undefined = live ?? file;
    const closeRecorders = async () => {
      await live?.close().catch(() => undefined);
      file?.close();
    };
    if (listen) {
      let http;
      try {
        http = await mcp.listenHttp({
          ...listen,
          ...(givenToken !== undefined && { token: givenToken }),
          connectServer: () => mcp.spawnMcpServer(command!, args, { env: serverEnv }),
          createSession: (id) => createSafetySession({ id, ...sessionOptions, ...(recorder && { recorder }) }),
          ...(escalate.length && { escalate }),
          ...(rules !== undefined && { rules }),
          ...(values['name-verbs'] && { nameVerbs: true }),
          trustAnnotations,
          ...(cancelGraceMs !== undefined && { cancelGraceMs }),
          ...(maxSessions !== undefined && { maxSessions }),
          ...(idleTimeoutMs !== undefined && { idleTimeoutMs }),
          log,
        });
      } catch (e) {
        log(`cannot listen on ${values.listen}: ${(e as Error).message}`);
        await closeRecorders();
        return 2;
      }
      // A token the person gave they know already: it is not copied into logs.
      const given = values.token !== undefined ? 'the --token value' : `$${GATEWAY_TOKEN_ENV}`;
      log(`listening on ${http.url} (Authorization: Bearer ${givenToken === undefined ? http.token : given})`);
      await untilStopped();
      await http.close();
      await closeRecorders();
      setTimeout(() => process.exit(0), 2000).unref();
      return 0;
    }
    const session = sharedSession
      ? undefined
      : createSafetySession({ ...sessionOptions, ...(recorder && { recorder }) });
    const shared = sharedSession;
    const gatewaySession: import('../mcp/index.js').SharedGatewaySession | undefined = shared && {
      withSession: (fn) =>
        shared.withSession(fn).catch((e: unknown) => {
          throw lostSessionForCli(e, shared.sessionId, redis?.keyPrefix);
        }),
      claim: (id) => shared.claim(id),
      release: (id, ended) => shared.release(id, ended),
      orphans: () => shared.orphans(),
    };
    const downstream = mcp.spawnMcpServer(command!, args, { env: serverEnv });
    const gateway = mcp.createMcpGateway({
      upstream: mcp.createStdioServerTransport(),
      downstream,
      ...(session && { session }),
      ...(gatewaySession && { sharedSession: gatewaySession }),
      ...(rules !== undefined && { rules }),
      ...(values['name-verbs'] && { nameVerbs: true }),
      trustAnnotations,
      ...(cancelGraceMs !== undefined && { cancelGraceMs }),
      ...(escalate.length && { escalate }),
      log,
    });
    const stop = () => void gateway.close();
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    let code: number;
    try {
      await gateway.start();
      log(
        `session ${session?.id ?? `${sharedSession!.sessionId} (${redis?.target.cluster !== undefined ? 'Redis Cluster' : 'Redis'}${redis?.durability === 'replicated' ? ', saves confirmed by a replica' : ''})`}: gating ${command}${args.length ? ` ${args.join(' ')}` : ''}`,
      );
      const exit = await gateway.closed;
      if (exit.endedInFlight)
        log(`${exit.endedInFlight} call(s) in flight were ended with an unknown outcome (a write must be verified)`);
      log(
        exit.reason === 'server-closed'
          ? `the MCP server exited${howItEnded(downstream.exit)}`
          : 'the client disconnected',
      );
      code = exit.reason === 'server-closed' ? 1 : 0;
    } catch (e) {
      // A shared session loads from Redis first: what Redis refuses is not the server's fault.
      const failure = redis && redisFailure(e, redis.target, redis.session, redis.keyPrefix);
      log(failure ? `cannot start: ${failure}` : `cannot start ${command}: ${(e as Error).message}`);
      await gateway.close().catch(() => undefined);
      code = 2;
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      await closeRecorders();
      await sharedSession?.close().catch(() => undefined);
    }
    // Nothing may keep a finished gateway alive (a client waits for it to exit); the server's
    // process group is already gone (the transport's close waited for it).
    setTimeout(() => process.exit(code), 200).unref();
    return code;
  },
};

/** How the server's process ended, for the log line: ` (exit code 3)`, ` (killed by SIGKILL)`, or nothing when not known. */
function howItEnded(exit: import('../mcp/index.js').McpServerProcess['exit']): string {
  if (exit?.signal) return ` (killed by ${exit.signal})`;
  if (typeof exit?.code === 'number') return ` (exit code ${exit.code})`;
  return '';
}

/** Imports the Redis subpath, or prints how to install ioredis and returns undefined. */
async function importRedis(io: CliIO): Promise<typeof import('../redis/index.js') | undefined> {
  try {
    return await import('../redis/index.js');
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      io.err('mcp-gateway: the --redis option needs the ioredis package: npm i ioredis');
      return undefined;
    }
    throw e;
  }
}

/** The first argument from which the rest looks like a server's command line (`npx` in `--rules r npx -y srv`). */
function firstNonOption(argv: readonly string[], fallback: string): string {
  const takesValue = new Set(
    Object.entries(OPTIONS)
      .filter(([, option]) => option.type === 'string')
      .map(([name]) => `--${name}`),
  );
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (takesValue.has(a)) i++;
    else if (!a.startsWith('--')) return a;
  }
  return fallback;
}

/** Whether any tool rule names target arguments (`targets`), which is what `--targets bind` checks. */
function namesTargets(rules: unknown): boolean {
  const tools = (rules as { tools?: unknown } | undefined)?.tools;
  if (typeof tools !== 'object' || tools === null) return false;
  return Object.values(tools).some((rule) => Array.isArray((rule as { targets?: unknown } | null)?.targets));
}
