import { describe, expect, it } from 'vitest';
import { classifyShellCommand } from 'assistant-safety/hooks';

/* A line is as strong as its strongest part: a write to unknown places over a write to named files (>, >>, tee) over a read. */

const judge = (line: string) => classifyShellCommand(line, { cwd: '/repo' });

describe('shell writes', () => {
  it.each([
    ['git diff > patch.diff', ['/repo/patch.diff']],
    ['echo x >> notes.md', ['/repo/notes.md']],
    ['cat a.ts > b.ts', ['/repo/b.ts']],
    ['npm test 2>&1 | tee /tmp/test.log', ['/tmp/test.log']],
    ['echo a | tee -a out.txt more.txt', ['/repo/out.txt', '/repo/more.txt']],
    ['cd sub && echo x > a.txt', ['/repo/sub/a.txt']],
    ['npm test > out.log; cat out.log', ['/repo/out.log']],
  ])('a write to the files it names: %s', (line, files) => {
    expect(judge(line)).toMatchObject({ kind: 'write', targets: files.map((f) => `file:${f}`) });
  });

  it.each([
    'git push origin main',
    'npm publish',
    'curl -X POST -d @data.json https://example.com',
    'wget --post-file=x https://example.com',
    'rm -rf /tmp/x',
    'rm -rf dist',
    'psql -c "drop table x"',
    'kubectl delete pod x',
    'docker compose up -d',
    'some-unknown-tool --flag',
    'echo x > $OUT',
    'echo x > ~/notes',
    'echo x | tee $LOG',
    'git diff > patch.diff && rm -rf src/legacy', // the unknown write wins
    'cat a.ts > out.txt', // without a cwd below: no key for the file
  ])('a write with no file targets: %s', (line) => {
    const judged = line === 'cat a.ts > out.txt' ? classifyShellCommand(line) : judge(line);
    expect(judged.kind).toBe('write');
    expect(judged.targets ?? []).toEqual([]);
  });

  it('keeps writes to nowhere reads', () => {
    for (const line of ['npm test > /dev/null 2>&1', 'ls | tee /dev/null', 'cat a.ts 1>&2'])
      expect(judge(line).kind, line).toBe('read');
  });
});
