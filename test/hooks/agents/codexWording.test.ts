import { describe, expect, it } from 'vitest';
import { codex, cursor, hookSession } from './agentEvents.js';

/*
 * Codex has no tool that reads a file: it reads with its shell. Its hook's sentences name the
 * commands (`cat`, `sed -n`, `ls`) where another agent's say "read", and those commands are reads.
 */

describe('Codex hook: the sentences name the shell commands that read', () => {
  it('names them for a first command that names no file, where another agent is told to read or list', () => {
    const push = (agent: typeof codex) => agent.decide(agent.shell('git push origin main', 'p1')[0], hookSession());
    expect(push(codex).refused).toMatch(
      /^Read or list what `git push origin main` changes first with `cat`, `sed -n` or `ls`: nothing has been read/,
    );
    expect(push(cursor).refused).toMatch(
      /^Read or list what `git push origin main` changes first: nothing has been read/,
    );
  });

  it('names them after a change that named no file', () => {
    const session = hookSession();
    for (const [before, after] of [codex.read('r1'), codex.shell('npm install left-pad', 'i1')]) {
      expect(codex.decide(before, session)).toEqual({});
      expect(codex.decide(after, session)).toEqual({});
    }
    const { refused } = codex.decide(codex.edit('e1')[0], session);
    expect(refused).toContain('read or list what it changed with `cat`, `sed -n` or `ls`, or run the tests');
  });

  it('counts `ls`, one of the commands it names, as the read that checks a change naming no file', () => {
    const session = hookSession();
    for (const [before, after] of [
      codex.read('r1'),
      codex.shell('npm install left-pad', 'i1'),
      codex.shell('ls', 'l1'),
    ]) {
      expect(codex.decide(before, session)).toEqual({});
      expect(codex.decide(after, session)).toEqual({});
    }
    expect(codex.decide(codex.edit('e1')[0], session)).toEqual({});
  });
});
