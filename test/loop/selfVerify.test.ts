import { createSafetySession, createToolLoop } from 'assistant-safety';
import { describe, expect, it } from 'vitest';
import { classify, createFakeTools, drive } from './fakeTools.js';

/** `restart_vm` is declared self-verifying: only such a tool's own result may verify it. */
const declared = (name: string) =>
  name === 'restart_vm' ? { kind: 'write' as const, selfVerifying: true as const } : classify(name);

function setup(classifier: typeof declared | typeof classify = declared) {
  const tools = createFakeTools();
  const session = createSafetySession();
  session.targetEstablished();
  return { tools, session, loop: createToolLoop({ session, execute: tools.execute, classify: classifier }) };
}

const write = (id: string) => ({ id, name: 'restart_vm', args: { vm: 'web-01', n: id } });

describe('self-verified writes', () => {
  it('should end a write whose result carries verification evidence as verified, with no separate read', async () => {
    for (const result of [{ restarted: true, verification: { ok: true, uptime: 3 } }, '{"verification":{"ok":true}}']) {
      const { tools, session, loop } = setup();
      await drive(tools, loop.runBatch([write('w1')]), undefined, (id) => tools.resolve(id, result));
      expect(session.wroteThisEpisode).toBe(true);
      expect(loop.finalAnswer()).toEqual({ allowed: true });
      // Verification is complete: the next write is admitted without a read in between.
      const [next] = await drive(tools, loop.runBatch([write('w2')]));
      expect(next!.status).toBe('ok');
    }
  });

  it('should not take a failed or missing verification as evidence', async () => {
    for (const result of [
      { verification: { ok: false } },
      { verification: { ok: 'yes' } },
      { ok: true },
      'ok',
      '{bad',
    ]) {
      const { tools, session, loop } = setup();
      await drive(tools, loop.runBatch([write('w1')]), undefined, (id) => tools.resolve(id, result));
      expect(session.state).toBe('VERIFYING');
      expect(session.readAfterWrite).toBe(false);
      expect(loop.finalAnswer()).toMatchObject({ allowed: false });
    }
  });

  it('should not take evidence inherited through a prototype', async () => {
    const { tools, session, loop } = setup();
    const sneaky = Object.create({ verification: { ok: true } }) as object;
    await drive(tools, loop.runBatch([write('w1')]), undefined, (id) => tools.resolve(id, sneaky));
    expect(session.readAfterWrite).toBe(false);
  });

  it('should not let a tool that is not declared self-verifying verify itself', async () => {
    const { tools, session, loop } = setup(classify);
    const result = { restarted: true, verification: { ok: true } };
    await drive(tools, loop.runBatch([write('w1')]), undefined, (id) => tools.resolve(id, result));
    expect(session.state).toBe('VERIFYING');
    expect(session.readAfterWrite).toBe(false);
  });

  it('should not take evidence the model put in the call arguments and the tool echoed back', async () => {
    const { tools, session, loop } = setup();
    const forged = { id: 'w1', name: 'restart_vm', args: { vm: 'web-01', verification: { ok: true } } };
    await drive(tools, loop.runBatch([forged]), undefined, (id) =>
      tools.resolve(id, { echoed: forged.args, verification: { ok: true } }),
    );
    expect(session.readAfterWrite).toBe(false);
    expect(loop.finalAnswer()).toMatchObject({ allowed: false });
  });
});
