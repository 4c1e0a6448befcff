import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { UsageError, type CliIO, type Command } from './Command.js';
import { readRulesFile, serverOf, splitAtDashes } from './mcpGateway.js';
import {
  GATEWAY_NUMBER_FLAGS,
  GATEWAY_OPTIONS,
  gatewayOptionsOf,
  type CheckedGatewayOptions,
} from './gatewayOptions.js';
import { joinNegativeValues } from './numberOptions.js';
import { LIVE_TOKEN_ENV } from './tokenNames.js';

/** The clients `mcp-config` writes for, and the key their config files keep MCP servers under. */
const CLIENTS = {
  'claude-desktop': 'mcpServers',
  cursor: 'mcpServers',
  vscode: 'servers',
  'openai-agents': 'mcpServers',
} as const;
type Client = keyof typeof CLIENTS;

/** One server entry of a client's config: `env` is set in the gateway's environment (the live token). */
interface Entry {
  type?: 'stdio';
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** Where each client keeps its config (none for the OpenAI Agents SDK: it is code). */
function configPathOf(client: Client): string | undefined {
  const home = homedir();
  switch (client) {
    case 'claude-desktop':
      if (process.platform === 'darwin')
        return join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
      if (process.platform === 'win32')
        return join(process.env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
      return join(process.env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Claude', 'claude_desktop_config.json');
    case 'cursor':
      return join(home, '.cursor', 'mcp.json');
    case 'vscode':
      return resolve('.vscode', 'mcp.json');
    case 'openai-agents':
      return undefined;
  }
}

/**
 * This CLI as a client should start it: the absolute path of node, node's own
 * flags (a loader, when run from source), and the real path of the bin
 * script, so no client resolves the package through a registry or a folder.
 */
function selfCommand(): { command: string; args: string[] } {
  const script = process.argv[1];
  if (script === undefined) throw new Error('cannot tell where this CLI is installed (no script path)');
  const flags = process.execArgv.filter((f) => !/^--(inspect|debug)/.test(f));
  return { command: process.execPath, args: [...flags, realpathSync(script)] };
}

/** A short entry name from the server's command line: `npx -y @scope/server-files /x` → `server-files`. */
function nameOf(server: readonly string[]): string {
  const launchers = new Set(['npx', 'npm', 'pnpm', 'yarn', 'bunx', 'uvx', 'node', 'python', 'python3', 'exec', 'dlx']);
  const words = server.filter((w) => !w.startsWith('-'));
  const word = words.find((w) => !launchers.has(basename(w))) ?? words[0] ?? 'server';
  return (
    basename(word)
      .replace(/@[^@/]*$/, '')
      .replace(/\.[cm]?[jt]s$/, '') || 'server'
  );
}

/** Merges `entry` under `key.name` in the JSON file at `path`; never drops what else it holds. */
function mergeInto(path: string, key: string, name: string, entry: Entry, force: boolean, io: CliIO): number {
  let root: Record<string, unknown> = {};
  if (existsSync(path)) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (e) {
      io.err(`mcp-config: ${path}: not plain JSON (${(e as Error).message}); add the entry by hand (printed above)`);
      return 2;
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      io.err(
        `mcp-config: ${path}: expected a JSON object at the top, got ${Array.isArray(json) ? 'an array' : typeof json}`,
      );
      return 2;
    }
    root = json as Record<string, unknown>;
  }
  const servers = root[key] ?? {};
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    io.err(`mcp-config: ${path}: "${key}" is not an object; nothing written`);
    return 2;
  }
  const existing = (servers as Record<string, unknown>)[name];
  if (existing !== undefined && isDeepStrictEqual(existing, entry)) {
    io.err(`mcp-config: ${path}: "${key}.${name}" is already this entry`);
    return 0;
  }
  if (existing !== undefined && !force) {
    io.err(
      `mcp-config: ${path}: "${key}.${name}" exists and differs; give --name another name, or --force to replace it`,
    );
    return 2;
  }
  root[key] = { ...(servers as Record<string, unknown>), [name]: entry };
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  // The file keeps its permissions; one that holds a token (an entry's env) is the user's alone.
  const before = existsSync(path) ? statSync(path).mode & 0o777 : undefined;
  const mode = entry.env ? (before ?? 0o600) & 0o600 : before;
  writeFileSync(temporary, JSON.stringify(root, null, 2) + '\n', mode === undefined ? {} : { mode });
  renameSync(temporary, path); // all or nothing: a crash never leaves half a config
  io.err(`mcp-config: ${existing === undefined ? 'added' : 'replaced'} "${key}.${name}" in ${path}`);
  return 0;
}

/** The gateway's command-line options for checked values (the rules, record and name-verbs aside), in a fixed order. */
function gatewayArgsOf(checked: CheckedGatewayOptions): string[] {
  const args: string[] = [];
  const add = (flag: string, value: string | number | undefined) => {
    if (value !== undefined) args.push(flag, String(value));
  };
  add('--trust-annotations', checked.trustAnnotations);
  add('--live', checked.live?.url); // its token goes in the entry's env, never on the command line
  add('--cancel-grace-ms', checked.cancelGraceMs);
  add('--targets', checked.targets);
  if (checked.shadow) args.push('--shadow');
  add('--escalate', checked.escalate?.join(','));
  const redis = checked.redis;
  if (redis !== undefined) {
    const { url, cluster } = redis.target;
    if (url !== undefined) args.push('--redis', url);
    else args.push('--redis-cluster', cluster.join(','));
    args.push('--session', redis.session);
    add('--redis-prefix', redis.keyPrefix);
    add('--orphan-after-ms', redis.orphanAfterMs);
    add('--redis-durability', redis.durability);
  }
  return args;
}

export const mcpConfigCommand: Command = {
  name: 'mcp-config',
  summary: "print (or merge into the client's file) the config entry that runs an MCP server behind the gateway",
  usage: `assistant-safety mcp-config CLIENT [--name NAME] [--write [--config FILE] [--force]]
                               [--rules FILE] [--record FILE] [--name-verbs]
                               [--trust-annotations all|destructive-only|none] [--live URL]
                               [--targets ignore|bind] [--shadow] [--escalate CODE,...]
                               [--cancel-grace-ms MS]
                               [--redis URL | --redis-cluster URL[,URL...] --session ID
                               [--redis-prefix P] [--orphan-after-ms MS] [--redis-durability primary|replicated]]
                               -- COMMAND [ARGS...]

Prints, as JSON, the config entry with which CLIENT starts the MCP server
COMMAND ARGS behind \`assistant-safety mcp-gateway\`. The entry names this
installation by absolute paths (node and the installed bin script), so the
client never looks the package up in a registry and it works from any folder.
CLIENT is one of claude-desktop, cursor, vscode, openai-agents.

  --name NAME     the entry's name (default: from the server's command line)
  --write         merge the entry into the client's config file, keeping every other
                  entry; an entry of the same name that differs is kept unless --force.
                  Files: claude-desktop: the Claude folder of your user config folder;
                  cursor: ~/.cursor/mcp.json; vscode: .vscode/mcp.json here;
                  openai-agents: --config FILE (the SDK is configured in code)
  --config FILE   the config file to merge into instead
  --force         replace an entry of the same name
  --rules, --record, --name-verbs, --trust-annotations, --live, --targets, --shadow,
  --escalate, --cancel-grace-ms, --redis, --redis-cluster, --session, --redis-prefix,
  --orphan-after-ms, --redis-durability
                  the gateway's options (see mcp-gateway --help), checked as the gateway
                  checks them (a missing or invalid rules file is refused); paths made absolute.
                  --live's token (from its URL, or from ${LIVE_TOKEN_ENV} here) goes in
                  the entry's env as ${LIVE_TOKEN_ENV}, never in its args: a command line
                  is readable by other local users (a file written with it is made mode 600)

Exit codes: 0 printed (and written), 2 bad arguments (a --rules file that is missing or not
rules: nothing printed) or a config file that is not JSON.`,
  async run(argv, io) {
    const split = splitAtDashes(argv);
    const { values, positionals } = parseArgs({
      args: joinNegativeValues(split.options, GATEWAY_NUMBER_FLAGS),
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        write: { type: 'boolean' },
        config: { type: 'string' },
        force: { type: 'boolean' },
        ...GATEWAY_OPTIONS,
      },
    });
    const [client, ...rest] = positionals;
    if (client === undefined || !(client in CLIENTS))
      throw new UsageError(
        `CLIENT must be one of ${Object.keys(CLIENTS).join(', ')}${client === undefined ? '' : `, got "${client}"`}`,
      );
    const server = serverOf(argv.slice(argv.indexOf(client) + 1), split, values, rest, 'mcp-config');
    if ((values.config !== undefined || values.force) && !values.write)
      throw new UsageError('--config and --force go with --write');
    // The client starts the gateway in a folder of its own: a relative file here would not be found there.
    for (const arg of server)
      if (!isAbsolute(arg) && /[/\\.]/.test(arg) && !arg.startsWith('-') && existsSync(arg))
        io.err(
          `mcp-config: warning: ${arg} is relative to this folder; the client starts the server elsewhere: give ${resolve(arg)}`,
        );

    // Checked as the gateway checks them: an entry the gateway refuses would stop the server at every start.
    const checked = gatewayOptionsOf(values);
    if (checked.live?.warning) io.err(`mcp-config: ${checked.live.warning}`);
    const gateway: string[] = ['mcp-gateway'];
    if (values.rules !== undefined) {
      // Checked as the gateway will load them: a bad file would stop the server at every start.
      const rules = resolve(values.rules);
      if (readRulesFile(rules, io, 'mcp-config') === undefined) return 2;
      gateway.push('--rules', rules);
    }
    if (values.record !== undefined) gateway.push('--record', resolve(values.record));
    if (values['name-verbs']) gateway.push('--name-verbs');
    gateway.push(...gatewayArgsOf(checked));

    const self = selfCommand();
    const entry: Entry = {
      ...(client === 'vscode' && { type: 'stdio' as const }),
      command: self.command,
      args: [...self.args, ...gateway, '--', ...server],
      ...(checked.live && { env: { [LIVE_TOKEN_ENV]: checked.live.token } }),
    };
    const key = CLIENTS[client as Client];
    const name = values.name ?? nameOf(server);
    io.out(JSON.stringify({ [key]: { [name]: entry } }, null, 2));
    if (!values.write) return 0;
    const path = values.config !== undefined ? resolve(values.config) : configPathOf(client as Client);
    if (path === undefined)
      throw new UsageError(`${client} keeps no config file: give --config FILE to write the entry to one`);
    return mergeInto(path, key, name, entry, values.force === true, io);
  },
};
