import { describe, expect, it } from 'vitest';
import { AGENTS, hookSession, REL } from './agentEvents.js';

/* Every agent's hook sends the agent back at its stop while an edited file is unchecked, and lets it stop after the tests ran. */

describe.each(AGENTS)('$name hook: stopping with an edit', (agent) => {
  const edited = () => {
    const session = hookSession();
    for (const [i, [before, after]] of [agent.read('r1'), agent.edit('e1')].entries()) {
      expect(agent.decide(before, session), `call ${i}`).toEqual({});
      expect(agent.decide(after, session), `call ${i}`).toEqual({});
    }
    return session;
  };

  it('is sent back while the edited file is unchecked, naming it', () => {
    const session = edited();
    const { sentBack } = agent.decide(agent.stop(), session);
    expect(sentBack).toContain(`Read ${REL} again${agent.readsWith}, or run the tests or the type check`);
    expect(sentBack).toMatch(/before stopping\. \[FINAL_ANSWER_UNVERIFIED\]$/);
  });

  it('is let go the second time (it can never loop)', () => {
    const session = edited();
    expect(agent.decide(agent.stop(true), session)).toEqual({});
  });

  // Codex reads with its shell: the command its sentence names is a read of the file, which lets it stop.
  it('may stop once the edited file is read again, the way its sentence says', () => {
    const session = edited();
    const [before, after] = agent.name === 'codex' ? agent.shell(`cat ${REL}`, 'r2') : agent.read('r2');
    expect(agent.decide(before, session)).toEqual({});
    expect(agent.decide(after, session)).toEqual({});
    expect(agent.decide(agent.stop(), session)).toEqual({});
  });

  // A test run is evidence for every file edited before it under the coding profile (the hook's default where the machine has it).
  it('may stop once the tests ran after the edit', () => {
    const session = edited();
    const [before, after] = agent.shell('npx vitest run', 't1');
    expect(agent.decide(before, session)).toEqual({});
    expect(agent.decide(after, session)).toEqual({});
    expect(agent.decide(agent.stop(), session)).toEqual({});
  });
});
