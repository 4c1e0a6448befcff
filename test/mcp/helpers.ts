import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** tsx's loader by absolute path, so a gateway started in another folder still runs TypeScript. */
export const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');
export const BIN = join(ROOT, 'src', 'cli', 'bin.ts');
export const FIXTURE = join(ROOT, 'test', 'mcp', 'fixtureServer.ts');

/** `npx assistant-safety ...` as the tests run it: the CLI from the source tree. */
export const cli = (args: readonly string[]) => [process.execPath, '--import', TSX, BIN, ...args];

export const tempDir = () => mkdtempSync(join(tmpdir(), 'assistant-safety-mcp-'));

/** The fixture server's command line, logging its runs to `log` and its pid to `pidFile`. */
export const fixtureCommand = (dir: string) => [
  process.execPath,
  '--import',
  TSX,
  FIXTURE,
  '--log',
  join(dir, 'runs.jsonl'),
  '--pid-file',
  join(dir, 'server.pid'),
];

/** What the fixture server ran, in order. */
export function runsOf(dir: string): Array<{ tool: string; event: string }> {
  const file = join(dir, 'runs.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { tool: string; event: string });
}

export interface Connected {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  /** Resolves with the gateway's exit code. */
  exited: Promise<number | null>;
  /** The process id of `command`. */
  pid: number;
}

/** Starts `command` (a gateway or a server) over stdio, with `env` set too, and connects the SDK's own client to it. */
export async function connect(
  command: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Connected> {
  const [file, ...args] = command;
  const transport = new StdioClientTransport({
    command: file!,
    args,
    cwd,
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'assistant-safety-test', version: '1.0.0' });
  await client.connect(transport);
  // The SDK's transport forgets its child on close; keep our own view of the exit.
  const child = (transport as unknown as { _process?: import('node:child_process').ChildProcess })._process!;
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
  return { client, transport, stderr: () => err, exited, pid: child.pid! };
}

/** The envelope in a blocked call's text. */
export function envelopeOf(result: { content?: unknown }) {
  const [first] = (result.content ?? []) as Array<{ type: string; text?: string }>;
  return JSON.parse(first?.text ?? 'null') as { error: string; message: string; details: Record<string, unknown> };
}

/** The fenced ```LANG blocks of a markdown file, in order. */
export function codeBlocks(markdown: string, lang: string): string[] {
  const out: string[] = [];
  // The info string may say more after the language (`python fragment`).
  const re = new RegExp('```' + lang + '(?: [^\\n]*)?\\n([\\s\\S]*?)```', 'g');
  for (let m = re.exec(markdown); m; m = re.exec(markdown)) out.push(m[1]!);
  return out;
}

/** Polls until `check` holds; fails after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}
