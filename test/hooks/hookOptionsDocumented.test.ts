import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HOOK_CLAUDE_CODE_USAGE } from '../../src/cli/hookClaudeCode.js';
import { HookOptionError, parseHookOptions } from '../../src/cli/hookRun.js';

/*
 * docs/coding-agents.md's table of `hook claude-code` options lists every option the command's
 * `--help` shows, and the command takes every option its `--help` shows.
 */

/** The options of the usage's synopsis (the lines before the first blank one). */
const synopsis = [...HOOK_CLAUDE_CODE_USAGE.split('\n\n')[0]!.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]);

/** The options in the first column of the docs page's table, after its heading line. */
function documented(): string[] {
  const page = readFileSync('docs/coding-agents.md', 'utf8');
  const table = page.slice(page.indexOf('Options of `assistant-safety hook claude-code`:')).split('\n\n')[1]!;
  return table
    .split('\n')
    .slice(2)
    .map((row) => /^\| `(--[a-z][a-z-]*)/.exec(row)?.[1])
    .filter((o): o is string => o !== undefined);
}

describe('hook claude-code options', () => {
  it('are all in the docs table, and only those', () => {
    expect(synopsis.length).toBeGreaterThan(5);
    expect([...documented()].sort()).toEqual([...synopsis].sort());
  });

  it('are all taken by the hook command', () => {
    for (const option of synopsis) {
      try {
        parseHookOptions([option, ...(option === '--shadow' ? [] : ['x'])], true);
      } catch (e) {
        // A value the option refuses is fine here; an option the command does not know is not.
        expect(e).toBeInstanceOf(HookOptionError);
        expect((e as HookOptionError).argument, `${option}: ${(e as Error).message}`).toBe(false);
      }
    }
  });
});
