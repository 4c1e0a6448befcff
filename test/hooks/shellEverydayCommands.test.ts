import { describe, expect, it } from 'vitest';
import { classifyShellCommand, parseShellCommand } from 'assistant-safety/hooks';

const judge = (line: string) => classifyShellCommand(line, { cwd: '/repo' });

/*
 * Everyday lines a coding agent runs that only read. Before, each was a write, so as an agent's
 * first command it was refused for want of a read, and after an edit it held the next one:
 * `[` (the test command) was taken for a glob because of its bracket, and `xargs` and `sleep`
 * were not in the table at all.
 */
describe('everyday reads', () => {
  it.each([
    '[ -d src ] && ls src',
    '[ -f package.json ] && cat package.json',
    'find . -name "*.ts" | xargs grep -n foo',
    'git ls-files | xargs wc -l',
    'find src -type f -print0 | xargs -0 wc -l',
    'git ls-files | xargs -I {} head -n 3 {}',
    'ls | xargs',
    'sleep 2 && cat out.log',
  ])('a read: %s', (line) => {
    expect(judge(line).kind).toBe('read');
  });

  it.each([
    'find . -name "*.ts" | xargs rm',
    'git ls-files | xargs sed -i s/a/b/',
    'git ls-files | xargs sort -o out.txt',
    'ls | xargs sh -c "rm -rf x"',
    'ls | xargs -i rm {}',
    'ls | xargs --unknown-option cat',
  ])('xargs running what could write stays a write: %s', (line) => {
    expect(judge(line).kind).toBe('write');
  });

  it('still takes a bracket expression for a glob', () => {
    expect(parseShellCommand('ls [ab].ts').commands[0]!.expanding).toEqual([1]);
    expect(parseShellCommand('[ -d src ]').commands[0]!.expanding).toEqual([]);
  });
});

/*
 * A glob after a quoted part of the same word (`''*`, `"src"/*`) is still a glob: the shell
 * expands every unquoted `*`. Before, a word with any quoted part never counted as expanding,
 * so `find . ''*` was a read, though a file named `-delete` in the folder makes it delete.
 */
describe('globs after quotes', () => {
  it('expands a word whose glob follows a quoted part', () => {
    expect(parseShellCommand(`find . ''*`).commands[0]!.expanding).toEqual([2]);
    expect(parseShellCommand('cat "src"/*.ts').commands[0]!.expanding).toEqual([1]);
    expect(parseShellCommand(`cat '*.ts'`).commands[0]!.expanding).toEqual([]);
  });

  it('makes a command whose arguments can write a write', () => {
    expect(judge(`find . ''*`).kind).toBe('write');
    expect(judge(`cat "src"/*.ts`).kind).toBe('read');
  });
});

/*
 * Test runners write where they are told: a report (`--outputFile`, `--junitxml`), or pytest's
 * `--basetemp`, a folder it empties before the run. Before, each was a project-wide check, so
 * `pytest --basetemp=src` emptied src and counted as the check of every edited file.
 */
describe('test runners that write', () => {
  it.each([
    'pytest --basetemp=src',
    'python -m pytest --basetemp src',
    'npx jest --json --outputFile=src/a.ts',
    'npx vitest run --outputFile=src/a.ts',
    'pytest --junitxml=src/a.py',
    'pytest --junit-xml=report.xml',
  ])('a write: %s', (line) => {
    expect(judge(line).kind).toBe('write');
  });

  it.each(['pytest -q', 'npx jest --ci', 'npx vitest run --reporter=verbose'])('still a check: %s', (line) => {
    expect(judge(line)).toMatchObject({ kind: 'read', check: true });
  });
});
