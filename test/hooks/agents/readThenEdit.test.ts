import { describe, expect, it } from 'vitest';
import { AGENTS, hookSession } from './agentEvents.js';

/* Every agent's hook lets a read of a file through, then an edit of the file it read. */

describe.each(AGENTS)('$name hook: a read, then an edit of the file read', (agent) => {
  it('allows both, and the session ends the edit', () => {
    const session = hookSession();
    const [readBefore, readAfter] = agent.read('r1');
    expect(agent.decide(readBefore, session)).toEqual({});
    expect(agent.decide(readAfter, session)).toEqual({});
    const [editBefore, editAfter] = agent.edit('e1');
    expect(agent.decide(editBefore, session)).toEqual({});
    expect(Object.keys(session.context.calls)).toHaveLength(1);
    expect(agent.decide(editAfter, session)).toEqual({});
    expect(session.context.calls).toEqual({});
    expect(session.context.wroteThisEpisode).toBe(true);
  });
});
