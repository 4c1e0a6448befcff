import { describe, expect, it } from 'vitest';
import { createSafetySession } from 'assistant-safety';
import {
  classifyShellCommand,
  createCodingAgentClassifier,
  respondToClaudeCodeHook,
  type ClaudeCodeHookInput,
} from 'assistant-safety/hooks';
import { CWD, bash, events, read } from './fixtures.js';

/*
 * `sed -i 's/a/b/' src/b.ts` edits src/b.ts as surely as Edit does. Before, it was a write that
 * named no file: after a read of any other file it ran on src/b.ts, never read in the session,
 * and a `pwd` afterwards counted as its check, so the agent stopped with src/b.ts unseen. Now a
 * script that only edits lines names the files it rewrites, and the coding profile gates it as
 * their edit: the file read first, then read again (or a check) before Stop.
 */

const judge = (line: string) => classifyShellCommand(line, { cwd: '/repo' });

describe('sed -i names the files it edits', () => {
  it.each([
    ["sed -i 's/port: 80/port: 8080/' src/config.ts", ['src/config.ts']],
    ["sed -i.bak -e 's/a/b/g' -e '/^$/d' a.ts b.ts", ['a.ts', 'b.ts']],
    ["sed -E -i 's|a+|b|g' a.ts", ['a.ts']],
    ["sed --in-place 's#x#y#2' a.ts", ['a.ts']],
    ["sed -i '3,5d' a.ts", ['a.ts']],
  ])('%s', (line, files) => {
    expect(judge(line)).toMatchObject({ kind: 'write', targets: files.map((f) => `file:/repo/${f}`) });
  });

  it.each([
    "sed -i 's/a/b/w out.txt' a.ts", // writes another file
    "sed -i '1e rm -rf /' a.ts", // runs a command
    "sed -i 's/a/b/e' a.ts",
    "sed -i '1r other.ts' a.ts",
    'sed -i -f script.sed a.ts',
    "sed -i 's/a/b/'", // no file
    "sed -i 's/a/b/' $F",
  ])('a write that names nothing when it could do more: %s', (line) => {
    const judged = judge(line);
    expect(judged.kind).toBe('write');
    expect(judged.targets ?? []).toEqual([]);
  });
});

describe('the hook gates sed -i as the edit of its file', () => {
  const B = `${CWD}/src/b.ts`;
  const SED = `sed -i 's/a/b/' src/b.ts`;
  const e = events('sed-in-place');
  const reason = (out: unknown) =>
    (out as { hookSpecificOutput?: { permissionDecisionReason?: string } } | undefined)?.hookSpecificOutput
      ?.permissionDecisionReason ?? 'allow';

  function session() {
    const s = createSafetySession({ targets: 'bind', profile: 'coding' });
    const notes = {};
    // The classifier the hook command builds for the event's cwd.
    const classify = createCodingAgentClassifier({ cwd: CWD });
    const respond = (event: ClaudeCodeHookInput) => respondToClaudeCodeHook(event, s, notes, { classify });
    respond(e.pre('Read', read(), 'r1'));
    respond(e.post('Read', read(), 'r1'));
    return respond;
  }

  it('refuses it on a file the session has not read', () => {
    const respond = session();
    expect(reason(respond(e.pre('Bash', bash(SED), 'b1')))).toMatch(
      /^Read src\/b\.ts first.*\[TARGET_NOT_VALIDATED\]$/,
    );
  });

  it('after a read of the file, lets it run and holds Stop until the file is read again', () => {
    const respond = session();
    respond(e.pre('Read', read(B), 'r2'));
    respond(e.post('Read', read(B), 'r2'));
    expect(reason(respond(e.pre('Bash', bash(SED), 'b1')))).toBe('allow');
    respond(e.post('Bash', bash(SED), 'b1'));
    respond(e.pre('Bash', bash('pwd'), 'b2'));
    respond(e.post('Bash', bash('pwd'), 'b2'));
    expect(JSON.stringify(respond(e.stop(false)))).toMatch(/src\/b\.ts.*FINAL_ANSWER_UNVERIFIED/);
    respond(e.pre('Read', read(B), 'r3'));
    respond(e.post('Read', read(B), 'r3'));
    expect(respond(e.stop(false))).toBeUndefined();
  });
});
