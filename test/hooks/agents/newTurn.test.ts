import { describe, expect, it } from 'vitest';
import { AGENTS, hookSession, REL } from './agentEvents.js';

/*
 * Every agent's hook: an interrupted turn may leave a call that never reports back. The user's next
 * prompt starts a new turn, which ends it as unknown (it may have acted) rather than leave it in
 * flight, holding every later edit, until a stop that an interrupted turn never sends.
 */

describe.each(AGENTS)('$name hook: a new prompt after a turn that left an edit in flight', (agent) => {
  it('ends the edit as unknown, and the file it may have changed is still to be checked', () => {
    const session = hookSession();
    const [readBefore, readAfter] = agent.read('r1');
    agent.decide(readBefore, session);
    agent.decide(readAfter, session);
    const [editBefore] = agent.edit('e1');
    expect(agent.decide(editBefore, session)).toEqual({});
    expect(Object.keys(session.context.calls)).toHaveLength(1);
    expect(agent.decide(agent.prompt('And log each retry.'), session)).toEqual({});
    expect(session.context.calls).toEqual({});
    expect(agent.decide(agent.stop(), session).sentBack).toContain(REL);
  });
});
