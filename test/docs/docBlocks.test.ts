import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../redis/redisServer.js';
import { startTestServer } from '../server/helpers.js';
import { codeBlocksOf, type CodeBlock } from './codeBlocks.js';
import { docPages } from './markdown.js';

/*
 * Every code block of README.md and docs/ runs as written, or says it is a
 * fragment (```ts fragment). TypeScript and JavaScript blocks run offline
 * with tsx, each in a fresh folder, importing the package by name (resolved
 * to this repository's sources); the Redis page's blocks get a real
 * redis-server (REDIS_URL) and the live recorder's a real server
 * (ASSISTANT_SAFETY_URL). `sh` blocks of `npx assistant-safety` commands run
 * against the built CLI; JSON blocks are parsed. `text` (output, synopses) and
 * `mermaid` (the machine's diagram, checked by test/core/export.test.ts) are
 * not programs. Any other block must be marked as a fragment.
 *
 * The blocks run in a few processes at once (RUNNERS), several blocks per
 * process, so the whole page set costs a few start-ups, not one per block.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const TSX = pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const CLI = join(root, 'dist', 'src', 'cli', 'bin.js');
const RUNNERS = 3;

const RUN = new Set(['ts', 'js', 'mts', 'mjs', 'typescript', 'javascript']);
const SHELL = new Set(['sh', 'bash', 'shell']);
const NOT_CODE = new Set(['text', 'mermaid']);

interface PageBlock extends CodeBlock {
  page: string;
}
const where = (b: PageBlock) => `${b.page}:${b.line}`;

const blocks: PageBlock[] = docPages()
  .sort()
  .flatMap((page) => codeBlocksOf(readFileSync(join(root, page), 'utf8')).map((b) => ({ ...b, page })));
const live = blocks.filter((b) => !b.fragment);
const programs = live.filter((b) => RUN.has(b.lang));
const shells = live.filter((b) => SHELL.has(b.lang));

/** The pages that show an example program whole: the block is the file, so neither drifts from the other. */
const SHOWN_WHOLE = [
  ['docs/ai-sdk.md', 'examples/ai-sdk-agent.ts'],
  ['docs/openai-agents.md', 'examples/openai-agents-agent.ts'],
  ['docs/redis-walkthrough.md', 'examples/redis-workers.ts'],
] as const;

interface Ran {
  ok: boolean;
  output: string;
}
const results = new Map<PageBlock, Ran>();
let redis: TestRedis | undefined;
let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
let scratch: string | undefined;
const timings: string[] = [];

beforeAll(async () => {
  [redis, server] = await Promise.all([startTestRedis(), startTestServer()]);
  if (shells.length > 0 && !existsSync(CLI)) {
    const build = spawnSync('npm', ['run', 'build:lib'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('doc blocks: building the CLI failed');
  }
  // The block files live inside the repository (so `ai`, `ioredis`, ... resolve from its node_modules,
  // and its tsconfig maps `assistant-safety/*` to src/); each block runs in a fresh temporary folder.
  scratch = join(root, '.scratch', `doc-blocks-${process.pid}`);
  mkdirSync(scratch, { recursive: true });
  const env = {
    ...process.env,
    REDIS_URL: redis.url,
    ASSISTANT_SAFETY_URL: server.url,
    TSX_TSCONFIG_PATH: join(root, 'tsconfig.json'),
  };
  const jobs = programs.map((b, n) => {
    const file = join(scratch!, `${b.page.replace(/[^A-Za-z0-9]+/g, '-')}-${b.line}.mts`);
    writeFileSync(file, b.code);
    return { block: b, file, cwd: mkdtempSync(join(tmpdir(), 'doc-block-')), n };
  });
  const groups = Array.from({ length: Math.min(RUNNERS, jobs.length) }, (_, g) =>
    jobs.filter((_, n) => n % RUNNERS === g),
  );
  await Promise.all([
    ...groups.map(async (group, g) => {
      const list = join(scratch!, `jobs-${g}.json`);
      writeFileSync(list, JSON.stringify(group.map(({ file, cwd }) => ({ file, cwd }))));
      const started = performance.now();
      const { output } = await run(process.execPath, ['--import', TSX, join(root, 'test/docs/blockRunner.ts'), list], {
        cwd: root,
        env,
      });
      timings.push(`runner ${g} (${group.length} blocks): ${Math.round(performance.now() - started)} ms`);
      // Split the output on the runner's markers: what each block printed, and how it ended.
      let start = 0;
      const ended = new Map<number, { ok: boolean; text: string }>();
      for (const m of output.matchAll(/\n@@doc-block (\d+) (ok|fail)(?: (.*))?\n/g)) {
        const n = Number(m[1]);
        const previous = ended.get(n);
        const text = output.slice(start, m.index) + (m[3] ? `\n${JSON.parse(m[3]) as string}` : '');
        ended.set(n, { ok: (previous?.ok ?? true) && m[2] === 'ok', text: (previous?.text ?? '') + text });
        start = m.index + m[0].length;
      }
      group.forEach(({ block }, n) => {
        const end = ended.get(n);
        results.set(
          block,
          end ? { ok: end.ok, output: end.text } : { ok: false, output: `never finished:\n${output}` },
        );
      });
    }),
    ...shells.map(async (b) => {
      const cwd = mkdtempSync(join(tmpdir(), 'doc-block-'));
      let output = '';
      let ok = true;
      const started = performance.now();
      for (const line of commandsOf(b)) {
        const args = line
          .replace(/^npx assistant-safety\s*/, '')
          .split(/\s+/)
          .filter(Boolean);
        const ran = await run(process.execPath, [CLI, ...args], { cwd, env });
        output += `$ ${line}\n${ran.output}`;
        if (ran.code !== 0) {
          ok = false;
          output += `(exit ${ran.code})\n`;
          break;
        }
      }
      results.set(b, { ok, output });
      timings.push(`${where(b)}: ${Math.round(performance.now() - started)} ms`);
    }),
  ]);
  console.log(
    `doc blocks: ${programs.length} programs in ${groups.length} processes, ${shells.length} sh blocks; ${timings.join('; ')}`,
  );
}, 300_000); // a few child processes loading the SDKs: seconds on a busy machine, not a timed assertion

afterAll(async () => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  await Promise.all([redis?.stop(), server?.close()]);
});

/** The command lines of an `sh` block (comments and blank lines dropped, a trailing `# comment` cut). */
function commandsOf(b: CodeBlock): string[] {
  return b.code
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l && !l.startsWith('#'));
}

function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { ...options, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({
        code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
        output: `${stdout}${stderr}`,
      }),
    );
  });
}

describe('the code blocks of README.md and docs/', () => {
  it('should each be runnable, parseable or marked as a fragment', () => {
    const unmarked = live
      .filter((b) => !RUN.has(b.lang) && !SHELL.has(b.lang) && !NOT_CODE.has(b.lang))
      .filter((b) => b.lang !== 'json' && b.lang !== 'jsonc')
      .map((b) => `${where(b)} (\`\`\`${b.lang || '(no language)'}): mark it \`${b.lang || 'text'} fragment\``);
    expect(unmarked).toEqual([]);
    // sh blocks that run are `npx assistant-safety` commands; anything else (npm install, a clone) is a fragment.
    const foreign = shells.flatMap((b) =>
      commandsOf(b)
        .filter((l) => !l.startsWith('npx assistant-safety'))
        .map((l) => `${where(b)}: "${l}" is not an assistant-safety command: mark the block \`sh fragment\``),
    );
    expect(foreign).toEqual([]);
    // The doc-test sees the blocks it should: every page's runnable TypeScript among them.
    expect(programs.length).toBeGreaterThan(10);
  });

  it.each(live.filter((b) => b.lang === 'json' || b.lang === 'jsonc').map((b) => [where(b), b] as const))(
    'should parse the JSON at %s',
    (_, b) => {
      // jsonc: JSON with // comments (none of them inside a string here).
      const text = b.lang === 'jsonc' ? b.code.replace(/^\s*\/\/.*$|\s+\/\/[^"\n]*$/gm, '') : b.code;
      expect(() => JSON.parse(text)).not.toThrow();
    },
  );

  it.each(programs.map((b) => [where(b), b] as const))('should run the %s block as written', (_, b) => {
    const ran = results.get(b)!;
    expect(ran.ok, `${where(b)} failed:\n${ran.output}`).toBe(true);
  });

  it.each(shells.map((b) => [where(b), b] as const))('should run the commands at %s with the built CLI', (_, b) => {
    const ran = results.get(b)!;
    expect(ran.ok, `${where(b)}:\n${ran.output}`).toBe(true);
  });

  it.each(SHOWN_WHOLE)('should show the example program whole in %s (%s)', (page, file) => {
    const text = readFileSync(join(root, page), 'utf8');
    const example = readFileSync(join(root, file), 'utf8');
    expect(codeBlocksOf(text).some((b) => b.lang === 'ts' && !b.fragment && b.code === example)).toBe(true);
  });
});
