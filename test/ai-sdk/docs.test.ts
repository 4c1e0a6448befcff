import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const run = promisify(execFile);

/** The page's first TypeScript block, with the provider import pointed at the scripted stand-in. */
function agentOf(page: string, provider: RegExp): string {
  const text = readFileSync(join(root, 'docs', page), 'utf8');
  const code = /```ts\n([\s\S]*?)```/.exec(text)?.[1];
  if (!code) throw new Error(`no ts block in docs/${page}`);
  const swapped = code.replace(provider, (line) => `${line}\nimport { openai, OpenAIProvider } from './docsModel.js';`);
  return swapped
    .replace("import { openai } from '@ai-sdk/openai';\n", '')
    .replace(/import \{ Agent, OpenAIProvider,/, 'import { Agent,');
}

describe.each([
  ['ai-sdk.md', /^import \{ openai \} from '@ai-sdk\/openai';$/m],
  ['openai-agents.md', /^import \{ Agent, OpenAIProvider,.*$/m],
])('the agent in docs/%s', (page, provider) => {
  it('should run as written with the model swapped for a scripted one', async () => {
    const file = join(here, `.docs-${page}.tmp.ts`);
    writeFileSync(file, agentOf(page, provider));
    const cwd = mkdtempSync(join(tmpdir(), 'sdk-docs-')); // where the page's recording lands
    try {
      const { stdout } = await run(
        process.execPath,
        ['--import', pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href, file],
        {
          cwd,
          env: { ...process.env, TSX_TSCONFIG_PATH: join(root, 'tsconfig.json') },
        },
      );
      expect(stdout.trim()).toBe('web-01 was restarted and is running again.');
    } finally {
      rmSync(file, { force: true });
    }
  }, 120_000); // a child process loading the SDK: seconds on a busy machine, not a timed assertion
});
