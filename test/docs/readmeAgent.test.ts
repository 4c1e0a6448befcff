import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createSafetySession, createToolLoop, ToolLoopError, type ToolLoopOptions } from 'assistant-safety';
import { describe, expect, it } from 'vitest';

const readme = readFileSync('README.md', 'utf8');
const example = readFileSync('examples/readme-agent.ts', 'utf8');

describe("the README's minimal agent (ordinary tool names)", () => {
  it('should be the same code as examples/readme-agent.ts', () => {
    expect(readme).toContain('```ts\n' + example + '```');
  });

  it('should run discovery, a write and its verification with the kinds the tools declare', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'examples/readme-agent.ts'], { encoding: 'utf8' });
    expect(out.trim().split('\n')).toEqual([
      "[ 'set_role: blocked' ]",
      "[ 'search_docs: ok', 'list_users: ok' ]",
      "[ 'set_role: ok' ]",
      'false',
      "[ 'list_users: ok' ]",
      'true READING',
    ]);
  });

  it('should refuse to start without a classifier, with the message the docs give', () => {
    const options = {
      session: createSafetySession(),
      execute: async () => ({ ok: true }),
    } as unknown as ToolLoopOptions;
    let error: unknown;
    try {
      createToolLoop(options);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ToolLoopError);
    expect((error as ToolLoopError).code).toBe('INVALID_OPTIONS');
    expect((error as ToolLoopError).message).toContain('there is no default');
    expect((error as ToolLoopError).message).toContain('docs/classification.md');
    // The page it points to says the same and names the fix.
    const page = readFileSync('docs/classification.md', 'utf8');
    expect(page).toContain('classifyFromTools');
    expect(readme).toMatch(/no default classifier/);
  });
});
