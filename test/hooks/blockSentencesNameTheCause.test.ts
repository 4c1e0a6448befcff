import { describe, expect, it } from 'vitest';
import { createSafetySession } from 'assistant-safety';
import { respondToClaudeCodeHook, type ClaudeCodeHookInput } from 'assistant-safety/hooks';
import { bash, edit, events, read } from './fixtures.js';

/*
 * A refusal names what it is about: the command refused when it names no file, the tool of the last
 * change when no file of it is pending, and, for a tool the hook does not know, that it counts as a
 * change only for that reason (and, for the person, that the rules can say it only reads).
 */

const e = events('sentences');
const reason = (out: unknown) =>
  (out as { hookSpecificOutput?: { permissionDecisionReason?: string } } | undefined)?.hookSpecificOutput
    ?.permissionDecisionReason ?? '';

function hook(escalate?: string[]) {
  const session = createSafetySession({ targets: 'bind', profile: 'coding' });
  const notes = {};
  return (event: ClaudeCodeHookInput) =>
    respondToClaudeCodeHook(event, session, notes, escalate ? { escalate: escalate as never } : {});
}

describe('the sentences of a hook refusal', () => {
  it('should name a refused command that names no file, not the shell tool', () => {
    const respond = hook();
    expect(reason(respond(e.pre('Bash', bash('git push origin main'), 'b1')))).toBe(
      'Read or list what `git push origin main` changes first: nothing has been read in this session, and a change needs what it touches read first. [NO_VALIDATED_TARGET]',
    );
  });

  it('should name the tool of the last change when it named no file', () => {
    const respond = hook();
    respond(e.pre('Read', read(), 'r1'));
    respond(e.post('Read', read(), 'r1'));
    respond(e.pre('Bash', bash('npm install left-pad'), 'b1'));
    respond(e.post('Bash', bash('npm install left-pad'), 'b1'));
    expect(reason(respond(e.pre('Edit', edit(), 'w1')))).toBe(
      'Check the last change, made by Bash (read or list what it changed, or run the tests or the type check) before editing src/config.ts. [UNVERIFIED_WRITE]',
    );
  });

  it('should say a tool the hook does not know counts as a change, and tell the person how to declare it', () => {
    const tool = 'mcp__github__get_issue';
    const input = { owner: 'acme', repo: 'app', issue_number: 7 };
    const respond = hook();
    expect(reason(respond(e.pre(tool, input, 'm1')))).toContain(
      `(${tool} is a tool the hook does not know, so it counts as a change.)`,
    );
    const asking = hook(['UNVERIFIED_WRITE']);
    asking(e.pre('Read', read(), 'r1'));
    asking(e.post('Read', read(), 'r1'));
    asking(e.pre(tool, input, 'm2'));
    asking(e.post(tool, input, 'm2'));
    const asked = reason(asking(e.pre('Edit', edit(), 'w1')));
    expect(asked).toContain(`made by ${tool}`);
    expect(asked).toContain(`${tool} is in neither the hook's table nor its rules`);
    expect(asked).toContain('--rules');
  });
});
