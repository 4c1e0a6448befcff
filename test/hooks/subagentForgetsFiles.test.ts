import { describe, expect, it } from 'vitest';
import { createSafetySession } from 'assistant-safety';
import { respondToClaudeCodeHook } from 'assistant-safety/hooks';
import { edit, events, read } from './fixtures.js';

/*
 * A subagent acts through calls of its own; when it ends, the main agent's reads may be stale,
 * so under the coding profile every file must be read again before an edit.
 */

const e = events('subagent');
const task = {
  description: 'explore the config',
  prompt: 'Find where the port is set and fix it',
  subagent_type: 'general-purpose',
};

function sessionAfterSubagent(profile: 'coding' | undefined) {
  const session = createSafetySession({ targets: 'bind', ...(profile && { profile }) });
  const notes = {};
  const respond = (event: Parameters<typeof respondToClaudeCodeHook>[0]) =>
    respondToClaudeCodeHook(event, session, notes);
  respond(e.pre('Read', read(), 'r1'));
  respond(e.post('Read', read(), 'r1'));
  expect(respond(e.pre('Task', task, 's1'))).toBeUndefined();
  respond(e.post('Task', task, 's1'));
  return respond;
}

describe('a subagent under the coding profile', () => {
  it('makes an edit of a file read before it wait for a read after it, naming the file', () => {
    const respond = sessionAfterSubagent('coding');
    const denied = respond(e.pre('Edit', edit(), 'w1'));
    expect(denied).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    expect(JSON.stringify(denied)).toContain('src/config.ts');
    respond(e.pre('Read', read(), 'r2'));
    respond(e.post('Read', read(), 'r2'));
    expect(respond(e.pre('Edit', edit(), 'w2'))).toBeUndefined();
  });

  it('is nothing but a user input under the seed profile', () => {
    const respond = sessionAfterSubagent(undefined);
    expect(respond(e.pre('Edit', edit(), 'w1'))).toBeUndefined();
  });
});

describe('a read-only subagent (Explore, Plan) under the coding profile', () => {
  it.each(['Explore', 'Plan'])('leaves the files read before it read: %s', (subagent_type) => {
    const session = createSafetySession({ targets: 'bind', profile: 'coding' });
    const notes = {};
    const respond = (event: Parameters<typeof respondToClaudeCodeHook>[0]) =>
      respondToClaudeCodeHook(event, session, notes);
    const explore = { ...task, subagent_type };
    respond(e.pre('Read', read(), 'r1'));
    respond(e.post('Read', read(), 'r1'));
    respond(e.pre('Task', explore, 's1'));
    respond(e.post('Task', explore, 's1'));
    expect(respond(e.pre('Edit', edit(), 'w1'))).toBeUndefined();
  });
});
