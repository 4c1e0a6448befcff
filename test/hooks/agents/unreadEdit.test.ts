import { describe, expect, it } from 'vitest';
import { AGENTS, hookSession, REL } from './agentEvents.js';

/* Every agent's hook refuses an edit of a file the session never read, naming the file to read. */

describe.each(AGENTS)('$name hook: an edit of an unread file', (agent) => {
  it('is refused with one sentence naming the file', () => {
    const session = hookSession();
    const [before] = agent.edit('e1');
    const { refused } = agent.decide(before, session);
    expect(refused).toBe(
      `Read ${REL} first${agent.readsWith}: this session has not read it, and a change needs its file read (or created) in this session. [NO_VALIDATED_TARGET]`,
    );
    expect(session.context.calls).toEqual({});
  });
});
