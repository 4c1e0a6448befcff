import { describe, expect, it } from 'vitest';
import { classifyShellCommand } from 'assistant-safety/hooks';

/*
 * The same option spelt the other ways the command accepts it. GNU tools (getopt_long) and git
 * (parse-options) take any unambiguous prefix of a long option, and a short option's value may be
 * glued to it, whatever characters the value holds. Before, the table knew each dangerous option
 * only by its full name, or glued to letters only, so each line below was a read, though each one
 * writes a file or runs a program (each was run against the real tool to see it do so):
 * `sed -n --i 1p f` rewrote f to its first line (and, as a read of f, counted as its check),
 * `sort --ou=out in` and `sort -o./out in` wrote out, `git grep --open-files=touch x` ran touch.
 */

const judge = (line: string) => classifyShellCommand(line, { cwd: '/repo' });

describe('dangerous options however they are spelt', () => {
  it.each([
    // sed: --in-place, --expression and --file by a prefix; a script glued to -e
    'sed -n --i 1p src/a.ts',
    'sed -n --in-pl 1p src/a.ts',
    'sed -n --in-place=.bak 1p src/a.ts',
    "sed -n --expr='w out.txt' 1p src/a.ts",
    "sed -n --e 'w out.txt' src/a.ts",
    "sed -n -e'w out.txt' src/a.ts",
    "sed -n -e '1p' -e'1w out.txt' src/a.ts",
    'sed -n --fi script.sed src/a.ts',
    // sort: --output by a prefix, -o with a glued value that is not all letters, a compressor it runs
    'sort --ou=src/a.ts in.txt',
    'sort --out src/a.ts in.txt',
    'sort -o./src/a.ts in.txt',
    'sort -uo./src/a.ts in.txt',
    'sort --compress-program=sh in.txt',
    'sort --compress-p=sh in.txt',
    // git grep: the pager it runs on the matching files
    'git grep --open-files=touch x',
    'git grep --open=touch x',
    "git grep '-Otouch x' x",
    "git grep '-nOtouch x' x",
    // date: --set by a prefix
    'date --se=2020-01-01',
    // file: -C compiles a magic file and writes it
    'file -C -m magic',
    'file --compile -m magic',
  ])('a write: %s', (line) => {
    expect(judge(line).kind).toBe('write');
  });

  it.each([
    ["sed -n '1,80p' src/a.ts", ['file:/repo/src/a.ts']],
    ["sed -n -e '10,20p' -e '$p' src/a.ts", ['file:/repo/src/a.ts']],
    ["sed -n -e'10,20p' src/a.ts", ['file:/repo/src/a.ts']],
    ["sed -ne '1p' src/a.ts", ['file:/repo/src/a.ts']],
    ["sed --quiet --expression='1p' src/a.ts", ['file:/repo/src/a.ts']],
  ])('still a read of its file: %s', (line, targets) => {
    expect(judge(line)).toMatchObject({ kind: 'read', targets });
  });

  it.each([
    'sort -rn counts.txt',
    'sort -t: -k2 /etc/passwd',
    'sort --numeric-sort a.txt',
    'git grep -n "Options" src',
    'git grep -e foo --or -e bar',
    'date -u',
    'file src/a.ts',
  ])('still a read: %s', (line) => {
    expect(judge(line).kind).toBe('read');
  });
});

/*
 * Go's flags are whole words after one dash (`-run`, `-count`, `-timeout`), not bundles of
 * letters. Before, `go test` judged them as bundles, so `-run` held a `u` (`-u`, an update) and
 * `-timeout` a `u` too: the everyday `go test -run TestX ./...` was a write, and a first test run
 * was refused for want of a read. `-update`, the usual golden-file flag, and `go env -w` write.
 */
describe('go flags are words', () => {
  it.each([
    'go test -run TestParse ./...',
    'go test -v -timeout 30s ./...',
    'go test -count=1 -race ./...',
    'go test ./... -run=TestX -short',
    'go vet ./...',
    'go build ./...',
  ])('a project-wide check: %s', (line) => {
    expect(judge(line)).toMatchObject({ kind: 'read', check: true });
  });

  it.each(['go test ./... -update', 'go test -update ./...', 'go test -u ./...', 'go env -w GOPROXY=direct'])(
    'a write: %s',
    (line) => {
      expect(judge(line).kind).toBe('write');
    },
  );
});
