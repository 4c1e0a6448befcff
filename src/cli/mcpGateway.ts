import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ClassifierRules } from '../classifier.js';
import { formatPath } from '../MachineDefinition.js';
import type { SessionRecorder } from '../RecordingEntry.js';
import { createSafetySession } from '../SafetySession.js';
import { createFileRecorder, type FileRecorder } from '../node/fileRecorder.js';
import { createLiveRecorder, type LiveRecorder } from '../node/createLiveRecorder.js';
import { UsageError, type CliIO, type Command } from './Command.js';
import { untilStopped } from './untilStopped.js';

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
  const parsed = ClassifierRules.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${formatPath(i.path) || '(root)'}: ${i.message}`);
    io.err(`${command}: --rules ${path}: invalid classifier rules: ${issues.join('; ')}`);
    return undefined;
  }
  return json;
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
  usage: `assistant-safety mcp-gateway [--rules FILE] [--name-verbs] [--record FILE] [--live URL]
                                     [--listen HOST:PORT [--token TOKEN]] -- COMMAND [ARGS...]

Starts the MCP server COMMAND ARGS as a child process over stdio and serves MCP
on this process's stdin/stdout: a transparent proxy (tools, resources, prompts,
notifications, progress, cancellation) in which every tools/call goes through
one safety session. A blocked call never reaches the server: the client gets a
tool result with isError: true whose text is the FSMBlockedError envelope.

Classification: the rules win; then the tool's MCP annotations (readOnlyHint:
true is a read, anything else a write, also with no annotations).

  --rules FILE    classifier rules (JSON, the createClassifier format), validated on load
  --name-verbs    opt in to the name-verb heuristic for tools without annotations
                  (get_, list_, read_, search_... as reads; see docs/classification.md)
  --record FILE   append the session's recording (JSON Lines) to FILE
  --live URL      stream the session to a running \`assistant-safety serve\` (its printed URL)
  --listen HOST:PORT
                  serve MCP over Streamable HTTP at http://HOST:PORT/mcp instead of stdio:
                  one server process and one safety session per MCP session; clients send
                  Authorization: Bearer TOKEN (printed on stderr); stops on Ctrl-C
  --token TOKEN   the bearer token for --listen (default: a random one)

Logs go to stderr; stdout is the protocol. Needs ${MCP_SDK_INSTALL}.
Exit codes: 0 the client disconnected, 1 the server exited, 2 bad arguments or
the server could not start.`,
  async run(argv, io) {
    const split = splitAtDashes(argv);
    const { values, positionals } = parseArgs({
      args: split.options,
      allowPositionals: true,
      options: {
        rules: { type: 'string' },
        'name-verbs': { type: 'boolean' },
        record: { type: 'string' },
        live: { type: 'string' },
        listen: { type: 'string' },
        token: { type: 'string' },
      },
    });
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}" (the server goes after --)`);
    const [command, ...args] = split.command;
    if (command === undefined)
      throw new UsageError('the MCP server to run goes after --: mcp-gateway -- COMMAND [ARGS...]');
    const log = (line: string) => io.err(`mcp-gateway: ${line}`);

    let rules: unknown;
    if (values.rules !== undefined) {
      rules = readRulesFile(values.rules, io, 'mcp-gateway');
      if (rules === undefined) return 2;
    }
    if (values.live !== undefined) {
      try {
        new URL(values.live);
      } catch {
        throw new UsageError(`--live: not a URL: ${values.live}`);
      }
    }
    let listen: { host: string; port: number } | undefined;
    if (values.listen !== undefined) {
      const m = /^(.+):(\d{1,5})$/.exec(values.listen);
      const port = Number(m?.[2]);
      if (!m || port > 65535) throw new UsageError(`--listen: expected HOST:PORT, got "${values.listen}"`);
      listen = { host: m[1]!, port };
    } else if (values.token !== undefined) throw new UsageError('--token goes with --listen');
    const mcp = await importMcp(io, 'mcp-gateway');
    if (!mcp) return 2;

    let file: FileRecorder | undefined;
    let live: LiveRecorder | undefined;
    try {
      if (values.record !== undefined) file = createFileRecorder(values.record);
    } catch (e) {
      io.err(`mcp-gateway: --record ${values.record}: ${(e as Error).message}`);
      return 2;
    }
    if (values.live !== undefined) {
      live = createLiveRecorder({
        url: values.live,
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
          ...(values.token !== undefined && { token: values.token }),
          connectServer: () => mcp.spawnMcpServer(command, args),
          createSession: (id) => createSafetySession({ id, ...(recorder && { recorder }) }),
          ...(rules !== undefined && { rules }),
          ...(values['name-verbs'] && { nameVerbs: true }),
          log,
        });
      } catch (e) {
        log(`cannot listen on ${values.listen}: ${(e as Error).message}`);
        await closeRecorders();
        return 2;
      }
      log(`listening on ${http.url} (Authorization: Bearer ${http.token})`);
      await untilStopped();
      await http.close();
      await closeRecorders();
      setTimeout(() => process.exit(0), 2000).unref();
      return 0;
    }
    const session = createSafetySession(recorder ? { recorder } : {});
    const gateway = mcp.createMcpGateway({
      upstream: mcp.createStdioServerTransport(),
      downstream: mcp.spawnMcpServer(command, args),
      session,
      ...(rules !== undefined && { rules }),
      ...(values['name-verbs'] && { nameVerbs: true }),
      log,
    });
    const stop = () => void gateway.close();
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    let code: number;
    try {
      await gateway.start();
      log(`session ${session.id}: gating ${command}${args.length ? ` ${args.join(' ')}` : ''}`);
      const exit = await gateway.closed;
      if (exit.endedInFlight) log(`${exit.endedInFlight} call(s) in flight were ended as failed`);
      log(exit.reason === 'server-closed' ? 'the MCP server exited' : 'the client disconnected');
      code = exit.reason === 'server-closed' ? 1 : 0;
    } catch (e) {
      log(`cannot start ${command}: ${(e as Error).message}`);
      await gateway.close().catch(() => undefined);
      code = 2;
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      await closeRecorders();
    }
    // Nothing may keep a finished gateway alive (a client waits for it to exit).
    setTimeout(() => process.exit(code), 2000).unref();
    return code;
  },
};
