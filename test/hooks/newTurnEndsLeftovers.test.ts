import { describe, expect, it } from 'vitest';
import { createSafetySession } from 'assistant-safety';
import { respondToClaudeCodeHook, type ClaudeCodeHookInput } from 'assistant-safety/hooks';
import { CWD, edit, events, read } from './fixtures.js';

/*
 * A turn the user interrupts sends no Stop, and a call it left in flight may never report back.
 * The next prompt starts a new turn: such a call is over, and ends as unknown (it may have acted).
 * Before, an edit left in flight held every later edit at WRITE_IN_FLIGHT until some Stop came.
 */

const e = events('new-turn');
const OTHER = `${CWD}/src/other.ts`;
const prompt: ClaudeCodeHookInput = {
  ...e.start(),
  hook_event_name: 'UserPromptSubmit',
  prompt: 'Now change the other file too.',
};
const decision = (out: unknown) =>
  (out as { hookSpecificOutput?: { permissionDecision?: string } } | undefined)?.hookSpecificOutput
    ?.permissionDecision ?? 'allow';

function afterEditLeftInFlight() {
  const session = createSafetySession({ targets: 'bind', profile: 'coding' });
  const notes = {};
  const respond = (event: ClaudeCodeHookInput) => respondToClaudeCodeHook(event, session, notes);
  for (const [file, id] of [
    [undefined, 'r1'],
    [OTHER, 'r2'],
  ] as const) {
    respond(e.pre('Read', read(file), id));
    respond(e.post('Read', read(file), id));
  }
  expect(decision(respond(e.pre('Edit', edit(), 'w1')))).toBe('allow'); // and nothing more is heard of it
  return { session, respond };
}

describe('a new prompt after a turn that left a call in flight', () => {
  it('should hold later edits while the turn lasts', () => {
    const { respond } = afterEditLeftInFlight();
    expect(JSON.stringify(respond(e.pre('Edit', edit(OTHER), 'w2')))).toContain('WRITE_IN_FLIGHT');
  });

  it('should end the call as unknown: the next turn checks what it may have changed, then edits on', () => {
    const { session, respond } = afterEditLeftInFlight();
    respond(prompt);
    expect(session.context.calls).toEqual({});
    // It may have changed src/config.ts: not WRITE_IN_FLIGHT any more, but that file is to be checked first.
    const held = JSON.stringify(respond(e.pre('Edit', edit(OTHER), 'w2')));
    expect(held).toContain('UNVERIFIED_WRITE');
    expect(held).toContain('src/config.ts');
    respond(e.pre('Read', read(), 'r3'));
    respond(e.post('Read', read(), 'r3'));
    expect(decision(respond(e.pre('Edit', edit(OTHER), 'w3')))).toBe('allow');
  });
});
