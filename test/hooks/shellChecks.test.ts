import { describe, expect, it } from 'vitest';
import { classifyShellCommand } from 'assistant-safety/hooks';

/* Project-wide checks (tests, type checks, builds, linters, git diff/status) are reads marked `check`: evidence for every file edited before. */

const judge = (line: string) => classifyShellCommand(line, { cwd: '/repo' });

describe('project-wide checks', () => {
  it.each([
    'npm test',
    'npm t',
    'npm test -- --run',
    'npm run test',
    'npm run test:unit',
    'npm run lint',
    'npm run build',
    'npm run typecheck',
    'npm run format:check',
    'pnpm test',
    'pnpm lint',
    'pnpm run build',
    'pnpm exec vitest run',
    'yarn test',
    'yarn typecheck',
    'yarn jest',
    'npx vitest run',
    'npx vitest run test/a.test.ts',
    'npx --no-install vitest run',
    'vitest',
    'vitest run --reporter=dot',
    'jest',
    'npx jest src',
    'pytest',
    'pytest -q tests/test_a.py',
    'python -m pytest -x',
    'go test ./...',
    'go vet ./...',
    'cargo test',
    'cargo check --all-targets',
    'cargo clippy',
    'tsc',
    'tsc --noEmit',
    'npx tsc --noEmit -p .',
    'eslint .',
    'npx eslint src --max-warnings 0',
    'prettier --check .',
    'npx prettier -c src',
    'make test',
    'make -j4 check',
    'git diff',
    'git diff --stat',
    'git diff HEAD~1',
    'git diff --cached',
    'git status',
    'git status --short',
    'CI=1 npm test',
    'timeout 120 npm test',
    'time npx vitest run',
    'npm test 2>&1 | tail -n 40',
    'npx tsc --noEmit && npx vitest run',
    'cd /repo && npm test',
    'cd packages/core && npm test',
  ])('%s', (line) => {
    expect(judge(line)).toMatchObject({ kind: 'read', check: true });
  });

  it.each([
    'npm run lint:fix',
    'npm run test:update',
    'npm install',
    'npx vitest -u',
    'vitest watch',
    'jest --watch',
    'eslint --fix .',
    'eslint -o report.txt .',
    'prettier --write .',
    'tsc --init',
    'tsc --watch',
    'cargo clippy --fix',
    'make',
    'make deploy',
    'npm run deploy',
    'npm publish',
  ])('not a check, a write: %s', (line) => {
    const judged = judge(line);
    expect(judged.kind).toBe('write');
    expect(judged.check).toBeUndefined();
  });

  it.each([
    'vitest list',
    'tsc --version',
    'git diff -- src/a.ts', // narrowed to one file: evidence for that file only
    'git status src',
    'cd /elsewhere && npm test', // another project's tests
    'cd $DIR && npm test',
    'git -C ../other diff',
    'git --git-dir=/x/.git status',
    'ls',
  ])('a read but no project-wide check: %s', (line) => {
    const judged = judge(line);
    expect(judged.kind).toBe('read');
    expect(judged.check).toBeUndefined();
  });
});
