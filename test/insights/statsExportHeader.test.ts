import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

/*
 * From a first-contact review: `stats` named a file of agent conversations as such only when its very
 * first line was a conversation. An export whose first line is something else that audit reads past (a
 * Claude Code transcript opening with a file-history-snapshot line; an OpenAI export with a metadata
 * header row, which docs/audit.md says audit skips) got the nine-field schema dump again.
 */

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const claudeCode = [
  { type: 'file-history-snapshot', messageId: 'm1', snapshot: { messageId: 'm1', trackedFileBackups: {} } },
  { type: 'user', sessionId: 'abc', uuid: 'u1', cwd: '/repo', message: { role: 'user', content: 'fix it' } },
];
const openai = [
  { meta: 'export header', exportedAt: '2026-01-01' },
  {
    id: 'run-1',
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Done.' },
    ],
  },
];

describe('stats on an export whose first line is not a conversation', () => {
  it.each([
    ['a Claude Code transcript opening with a file-history-snapshot', claudeCode, 'a Claude Code transcript'],
    ['an OpenAI export with a header row', openai, 'an OpenAI chat export'],
  ])('should name %s as agent conversations for audit, in one line', async (_name, rows, what) => {
    const file = join(mkdtempSync(join(tmpdir(), 'as-stats-')), 'export.jsonl');
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const { code, err } = await run('stats', file);
    expect(code).toBe(2);
    expect(err).toContain(`looks like ${what} (agent conversations); assistant-safety audit ${file} reads those`);
    expect(err).not.toMatch(/Invalid input/);
  });
});
