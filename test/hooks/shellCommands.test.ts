import { describe, expect, it } from 'vitest';
import { classifyShellCommand, parseShellCommand } from 'assistant-safety/hooks';

/* Bash calls are judged by their command line: a read only when every part is a known read-only command. */

const kind = (line: string) => classifyShellCommand(line).kind;

describe('parseShellCommand', () => {
  it('splits pipelines and lists into simple commands, quotes removed', () => {
    const parsed = parseShellCommand(`ls -la | grep "a b" && echo 'it''s' ; cat x\\ y || true & wc -l\npwd`);
    expect(parsed.unsupported).toBeUndefined();
    expect(parsed.commands.map((c) => c.argv)).toEqual([
      ['ls', '-la'],
      ['grep', 'a b'],
      ['echo', 'its'],
      ['cat', 'x y'],
      ['true'],
      ['wc', '-l'],
      ['pwd'],
    ]);
  });

  it('sees redirections, with their file descriptors, and skips here-document bodies', () => {
    const parsed = parseShellCommand('cat <<EOF > out.txt 2>&1\nrm -rf /\nEOF\nls');
    expect(parsed.commands).toHaveLength(2);
    expect(parsed.commands[0]!.redirects).toEqual([
      { op: '<<', target: 'EOF' },
      { op: '>', target: 'out.txt' },
      { op: '>&', fd: '2', target: '1' },
    ]);
    expect(parsed.commands[1]!.argv).toEqual(['ls']);
  });

  it('keeps assignments apart and marks words the shell expands', () => {
    const [c] = parseShellCommand('FOO=1 ls $HOME "${X}" *.ts').commands;
    expect(c).toMatchObject({ assignments: ['FOO=1'], argv: ['ls', '$HOME', '${X}', '*.ts'], expanding: [1, 2, 3] });
  });

  it('reports what only running the shell can resolve', () => {
    expect(parseShellCommand('echo $(rm -rf /)').unsupported).toMatch(/command substitution/);
    expect(parseShellCommand('echo `id`').unsupported).toMatch(/command substitution/);
    expect(parseShellCommand('diff <(ls a) <(ls b)').unsupported).toMatch(/process substitution/);
    expect(parseShellCommand('echo "open').unsupported).toMatch(/unterminated double quote/);
    expect(parseShellCommand("echo 'open").unsupported).toMatch(/unterminated single quote/);
    expect(parseShellCommand('for f in *; do cat $f; done').unsupported).toMatch(/keyword "for"/);
    expect(parseShellCommand('cat <<EOF\nno end').unsupported).toMatch(/not closed/);
  });
});

describe('classifyShellCommand', () => {
  it.each([
    'ls | grep x',
    'ls -la',
    'cat package.json | jq .name',
    'git status && git diff HEAD~1 -- src',
    'git --no-pager log --oneline -5',
    'git -C ../other show HEAD:README.md',
    'rg -n "TODO" src; wc -l src/*.ts',
    'find . -name "*.ts" -type f',
    'npx vitest run test/hooks',
    'npm test',
    'npx tsc --noEmit -p .',
    'npx prettier --check src',
    'cargo test --all',
    'go vet ./...',
    'ls > /dev/null 2>&1',
    '{ ls; pwd; }',
    '(cat a || cat b) | sort | uniq -c',
    'echo "a | b; rm -rf /"',
    'head -n 20 <<< "x"',
  ])('reads: %s', (line) => {
    expect(classifyShellCommand(line)).toMatchObject({ kind: 'read', reason: expect.stringMatching(/read-only/) });
  });

  it.each([
    ['rm -rf src/legacy && ls', /"rm" is not a known read-only command/],
    ['ls && rm -rf src/legacy', /"rm"/],
    ['git log > log.txt', /writes to "log.txt"/],
    ['echo hi >> notes.md', /writes to "notes.md"/],
    ['git commit --amend -m x', /not a read-only use of git/],
    ['git -c core.pager=evil log', /not a read-only use of git/],
    ['git push', /not a read-only use of git/],
    ['sed -i s/a/b/ f', /writes to "f"/],
    ['sed -i -f s.sed f', /not a read-only use of sed/],
    ['find . -name x -delete', /not a read-only use of find/],
    ['find . -exec rm {} ;', /not a read-only use of find/],
    ['sort -o out.txt in.txt', /not a read-only use of sort/],
    ['npx vitest -u', /not a read-only use/],
    ['npx prettier --write .', /not a read-only use/],
    ['npm install', /not a read-only use of npm/],
    ['tsc --init', /not a read-only use of tsc/],
    ['PAGER=rm git log', /sets PAGER/],
    ['$EDITOR file', /expanded by the shell/],
    ['cat $(ls)', /command substitution/],
    ['rg --pre ./evil x', /not a read-only use of rg/],
    ['env rm -rf /', /not a read-only use of env/],
    ['', /no command/],
  ])('writes: %s', (line, reason) => {
    const judged = classifyShellCommand(line);
    expect(judged.kind).toBe('write');
    expect(judged.reason).toMatch(reason);
  });

  it.each([
    ['git add -A && git commit -m "fix: rounding"', true],
    ['git add src/a.ts', true],
    ['git status && git commit -m x', true],
    ['git commit -m x && git push', false],
    ['git commit -m x > out.txt', false],
    ['git -c core.hooksPath=/tmp/evil commit -m x', false],
  ])('records in the local repository only (a state-only write): %s → %s', (line, stateOnly) => {
    const judged = classifyShellCommand(line, { cwd: '/repo' });
    expect(judged.kind).toBe('write');
    expect(judged.stateOnly === true).toBe(stateOnly);
  });

  it('fails closed on arguments the shell expands for a command whose options can write', () => {
    expect(kind('find $DIR')).toBe('write');
    expect(kind('cat $FILE')).toBe('read');
  });
});
