import { createSafetySession, createToolLoop } from 'assistant-safety';
import { describe, expect, it } from 'vitest';
import { classify, createFakeTools, drive } from './fakeTools.js';

function setup() {
  const tools = createFakeTools();
  const session = createSafetySession();
  session.targetEstablished();
  return { tools, session, loop: createToolLoop({ session, execute: tools.execute, classify }) };
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
});
