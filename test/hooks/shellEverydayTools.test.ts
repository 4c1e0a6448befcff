import { describe, expect, it } from 'vitest';
import { classifyShellCommand } from 'assistant-safety/hooks';

const judge = (line: string) => classifyShellCommand(line, { cwd: '/repo' });

/*
 * Everyday tools an agent runs to look, not to change: before, each was a write as a command the
 * table did not know (or a use of it the table did not know), so the hook held it as a write.
 * Each is a read only as far as the tool's own options say it writes nothing and runs nothing:
 * every variant that can write, however spelt, stays a write.
 */
describe('awk', () => {
  it.each([
    ["awk '{print $1}' f", ['file:/repo/f']],
    ["awk -F: '$3 > 100 {print $1}' /etc/passwd", ['file:/etc/passwd']],
    ["awk '/error|warn/ {print}' log.txt", ['file:/repo/log.txt']],
    ["awk 'NR==1 || NR==3' f", ['file:/repo/f']],
    ["awk -v OFS=, '{print $1, $2}' f x=1", ['file:/repo/f']],
    [`awk '{ s += $1 } END { printf "%d\\n", s }' f`, ['file:/repo/f']],
    ["gawk --posix -F'\\t' '{print $2}' f", ['file:/repo/f']],
    ["gawk --lint=fatal -- '{print}' f", ['file:/repo/f']],
    [`awk 'BEGIN { while ((getline line < "f") > 0) n++; print n }'`, undefined],
  ])('a read: %s', (line, targets) => {
    expect(judge(line)).toMatchObject({ kind: 'read' });
    expect(judge(line).targets).toEqual(targets);
  });

  it.each([
    `awk '{print > "out.txt"}' f`,
    `awk '{print $1 >> "out.txt"}' f`,
    `awk '{printf "%s", $0 > "out.txt"}' f`,
    `awk '{print | "sh"}' f`,
    `gawk '{print |& "cat"}' f`,
    `awk 'BEGIN { system("rm -rf src") }'`,
    `awk '{ "date" | getline d }'`,
    `gawk '@include "lib"; {print}' f`,
    `gawk 'BEGIN { f = "system"; @f("ls") }'`,
    `gawk 'BEGIN { getline < "/inet/tcp/0/example.com/80" }'`,
    "awk -i inplace '{print}' f",
    "gawk -iinplace '{print}' f",
    'awk -f prog.awk f',
    "awk -e '{print}' f",
    "gawk -l ext '{print}' f",
    "gawk -o '{print}' f",
    "gawk -d '{print}' f",
    "gawk -p '{print}' f",
    "gawk --profile=src/a.ts '{print}' f",
    "gawk --pro '{print}' f", // an abbreviation of --profile
    "gawk --dump=src/a.ts '{print}' f",
    "gawk --incl inplace '{print}' f",
    'mawk -W exec prog f',
    "awk '{print}' *.log", // the shell picks the words
    'awk',
  ])('a write: %s', (line) => {
    expect(judge(line).kind).toBe('write');
  });
});

describe('sed printing to stdout', () => {
  it.each([
    ["sed 's/a/b/' f", ['file:/repo/f']],
    ["sed -E 's/(a)/\\1b/g' f", ['file:/repo/f']],
    ["sed '/^#/d' f", ['file:/repo/f']],
    ["sed -e 's/a/b/' -e '1,3d' f", ['file:/repo/f']],
  ])('a read: %s', (line, targets) => {
    expect(judge(line)).toMatchObject({ kind: 'read', targets });
  });

  it.each([
    "sed 's/a/b/w out.txt' f",
    "sed 's/a/b/e' f",
    "sed 'e rm -rf src' f",
    "sed 'r /etc/passwd' f",
    "sed 'W out.txt' f",
    "sed -e 's/a/b/' -e 'w out.txt' f",
    'sed -f script.sed f',
    'sed --file=script.sed f',
  ])('a write: %s', (line) => {
    expect(judge(line).kind).toBe('write');
  });

  it.each(["sed -i 's/a/b/' f", "sed --in 's/a/b/' f", "sed -Ei 's/a/b/' f"])(
    'an in-place edit stays the write of its file: %s',
    (line) => {
      expect(judge(line)).toMatchObject({ kind: 'write', targets: ['file:/repo/f'] });
    },
  );
});

describe('formatters and linters in check mode', () => {
  it.each([
    'cargo fmt --check',
    'cargo fmt --all -- --check',
    'black --check .',
    'black --check -l88 src',
    'prettier --check .',
    'ruff check .',
    'ruff check --config=ruff.toml src',
    'ruff format --check',
  ])('a check: %s', (line) => {
    expect(judge(line)).toMatchObject({ kind: 'read', check: true });
  });

  it.each(['gofmt -l .', 'gofmt -d main.go', 'gofmt -s -d .', "gofmt -r 'a -> b' -l .", 'black --diff src'])(
    'a read: %s',
    (line) => {
      expect(judge(line).kind).toBe('read');
    },
  );

  it.each([
    'cargo fmt',
    'cargo fmt -- --emit files',
    'cargo fmt --check -- --emit files',
    'cargo fmt --check -- --backup',
    'gofmt -w .',
    'gofmt -l -w .',
    'gofmt --w .',
    'gofmt -w=true main.go',
    'gofmt -cpuprofile src/a.go -l .',
    'black .',
    'black -- --check', // a path named --check
    'black --include --check src', // --check is the value of --include
    'black --check --unknown .',
    'prettier --write .',
    'prettier -cw .',
    'prettier --check --cache-location src/a.ts .',
    'ruff check --fix .',
    'ruff check --fix-only .',
    'ruff check --add-noqa',
    'ruff check -o src/a.py',
    'ruff check --output-file=src/a.py',
    'ruff check --cache-dir src',
    "ruff check --config 'fix = true'",
    'ruff format .',
    'eslint --cache --cache-location src/a.ts .',
  ])('a write: %s', (line) => {
    expect(judge(line).kind).toBe('write');
  });
});

describe('test runners', () => {
  it.each([
    'uv run pytest',
    'uv run --frozen pytest -q',
    'uv run -m pytest',
    'uv run python -m pytest',
    'uv run mypy src',
    'bun test',
    'bun test src/a.test.ts',
    'bun run test',
    'bun run lint',
  ])('a check: %s', (line) => {
    expect(judge(line)).toMatchObject({ kind: 'read', check: true });
  });

  it.each([
    'uv run pytest --basetemp=src',
    'uv run --with evil pytest',
    'uv run --env-file .env pytest',
    'uv run rm -rf src',
    'uv run sh -c "rm -rf src"',
    'uv pip install x',
    'uv sync',
    'bun test -u',
    'bun test --update-snapshots',
    'bun test --watch',
    'bun test --coverage --coverage-dir=src',
    'bun test --reporter=junit --reporter-outfile=src/a.ts',
    'bun build ./a.ts --outfile=src/a.ts',
    'bun run dev',
    'bun install',
  ])('a write: %s', (line) => {
    expect(judge(line).kind).toBe('write');
  });
});

describe('the GitHub CLI and git', () => {
  it.each([
    'gh pr view 12',
    'gh pr view 12 --comments',
    'gh pr list',
    'gh pr diff 12',
    'gh pr checks 12',
    'gh issue view 3',
    'gh issue list --label bug',
    'gh run view 99 --log-failed',
    'git rev-list HEAD',
    'git rev-list --count main..HEAD',
    'git worktree list',
    'git worktree list --porcelain',
  ])('a read: %s', (line) => {
    expect(judge(line).kind).toBe('read');
  });

  it.each([
    'gh pr create --fill',
    'gh pr merge 12',
    'gh pr checkout 12',
    'gh pr view 12 --web', // opens a browser
    'gh pr view 12 -cw',
    'gh issue create',
    'gh api repos/o/r/pulls -f title=x',
    'gh repo clone o/r',
    'git rev-list --output=src/a.ts HEAD',
    'git rev-list --out=src/a.ts HEAD',
    'git rev-list --ext-diff HEAD',
    'git worktree add ../x',
    'git worktree remove ../x',
    'git worktree prune',
  ])('a write: %s', (line) => {
    expect(judge(line).kind).toBe('write');
  });
});
