import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export interface SpawnMcpServerOptions {
  /** The server's environment. Default: this process's whole environment (a client's config sets the gateway's). */
  env?: Record<string, string>;
  cwd?: string;
  /** Where the server's stderr goes. Default `inherit`: the gateway's stderr, never its stdout. */
  stderr?: 'inherit' | 'pipe' | 'ignore';
}

/**
 * The transport to an MCP server run as a child process over stdio: the
 * SDK's `StdioClientTransport`, started by the gateway. Unlike the SDK's
 * default, the child inherits the whole environment, because a client's
 * config gives its `env` to the gateway it starts, meaning the server.
 *
 * @example
 * const downstream = spawnMcpServer('npx', ['-y', '@modelcontextprotocol/server-filesystem', '/tmp/notes']);
 * const gateway = createMcpGateway({ upstream: createStdioServerTransport(), downstream, session });
 */
export function spawnMcpServer(
  command: string,
  args: readonly string[] = [],
  options: SpawnMcpServerOptions = {},
): StdioClientTransport {
  const env =
    options.env ??
    Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  return new StdioClientTransport({
    command,
    args: [...args],
    env,
    stderr: options.stderr ?? 'inherit',
    ...(options.cwd !== undefined && { cwd: options.cwd }),
  });
}
