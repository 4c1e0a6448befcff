import { describe, expect, it } from 'vitest';
import { classifyShellCommand } from 'assistant-safety/hooks';

/* A shell read names the files it reads, so reading an edited file with `cat` or `git diff -- f` is evidence for it. */

const judge = (line: string) => classifyShellCommand(line, { cwd: '/repo' });

describe('shell reads and the files they read', () => {
  it.each([
    ['cat src/a.ts', ['src/a.ts']],
    ['cat -n src/a.ts src/b.ts', ['src/a.ts', 'src/b.ts']],
    ['head -n 40 src/a.ts', ['src/a.ts']],
    ['head -40 src/a.ts', ['src/a.ts']],
    ['tail -n +10 src/a.ts', ['src/a.ts']],
    ['less -N src/a.ts', ['src/a.ts']],
    ['wc -l src/a.ts src/b.ts', ['src/a.ts', 'src/b.ts']],
    ['nl -ba src/a.ts', ['src/a.ts']],
    ['grep -n "export" src/a.ts', ['src/a.ts']],
    ['grep -rn -A 3 TODO src lib', ['src', 'lib']],
    ['grep -e foo -e bar src/a.ts', ['src/a.ts']],
    ['rg -n "fn main" src/main.rs', ['src/main.rs']],
    ['rg -g "*.ts" -t ts foo src', ['src']],
    ["sed -n '1,80p' src/a.ts", ['src/a.ts']],
    ["sed -n -e '10,20p' -e '$p' src/a.ts", ['src/a.ts']],
    ["sed -n '/export/p' src/a.ts", ['src/a.ts']],
    ['diff -u src/a.ts src/b.ts', ['src/a.ts', 'src/b.ts']],
    ['git show HEAD:src/a.ts', ['src/a.ts']],
    ['git show main~2:./src/a.ts', ['src/a.ts']],
    ['git show src/a.ts', ['src/a.ts']],
    ['git diff -- src/a.ts', ['src/a.ts']],
    ['git diff HEAD~1 src/a.ts', ['src/a.ts']],
    ['git status src', ['src']],
    ['git blame src/a.ts', ['src/a.ts']],
    ['git -C pkg show HEAD:index.ts', ['pkg/index.ts']],
    ['cat /etc/hosts', ['/etc/hosts']],
    ['cat ../other/a.ts', ['/other/a.ts']],
  ])('%s', (line, files) => {
    const judged = judge(line);
    expect(judged.kind).toBe('read');
    expect(judged.targets).toEqual(files.map((f) => (f.startsWith('/') ? `file:${f}` : `file:/repo/${f}`)));
    expect(judged.check).toBeUndefined();
  });

  it.each([
    ['cat src/a.ts | grep -n foo', ['src/a.ts']],
    ['cat src/a.ts && head src/b.ts; wc -l src/c.ts', ['src/a.ts', 'src/b.ts', 'src/c.ts']],
    ['cd src && cat a.ts', ['src/a.ts']],
    ['cd /repo/src && cat ../b.ts', ['b.ts']],
    ['grep -c x src/a.ts 2>/dev/null || true', ['src/a.ts']],
  ])('pipelines and lists: %s', (line, files) => {
    expect(judge(line)).toMatchObject({ kind: 'read', targets: files.map((f) => `file:/repo/${f}`) });
  });

  it.each([
    'ls src',
    'grep -rn foo', // no path: the working folder, no file named
    'cat src/*.ts', // the shell picks the files
    'cat $FILE',
    'find src -name "*.ts"',
    'stat src/a.ts', // metadata, not content
    'echo src/a.ts',
    'cd $SOMEWHERE && cat a.ts', // the folder cannot be known
  ])('names no file: %s', (line) => {
    const judged = judge(line);
    expect(judged.kind).toBe('read');
    expect(judged.targets).toBeUndefined();
  });

  it('needs a cwd for relative paths, keeps absolute ones without one', () => {
    expect(classifyShellCommand('cat src/a.ts').targets).toBeUndefined();
    expect(classifyShellCommand('cat /repo/src/a.ts').targets).toEqual(['file:/repo/src/a.ts']);
  });

  it('keeps a sed script that could write or run something a write', () => {
    for (const line of [
      "sed -n '1w out.txt' a.ts",
      "sed -n '1e rm -rf /' a.ts",
      "sed 's/a/b/w out.txt' a.ts",
      "sed 's/a/b/e' a.ts",
      "sed 'r /etc/passwd' a.ts",
      'sed -n -f s.sed a.ts',
    ])
      expect(judge(line).kind, line).toBe('write');
  });
});
