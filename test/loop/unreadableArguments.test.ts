import { callDigest, createClassifier, createSafetySession, createToolLoop } from 'assistant-safety';
import { describe, expect, it } from 'vitest';

/*
 * A call whose arguments have no digest (a bigint, a cycle) or whose classifier throws is still a
 * write that binding judges. Before: a rule's missing-target placeholder needed the arguments'
 * digest, so `describe` threw for such arguments; the loop then judged the call a write with no
 * targets, and a bound session let it run once anything had been read. The digest itself walked
 * shared or cyclic objects without bound.
 */
const classify = createClassifier({
  tools: {
    list_payees: 'read',
    send_money: { kind: 'write', targets: ['to'], prefix: 'iban:' },
  },
});

async function boundLoop(classifier: (name: string, args?: unknown) => unknown) {
  const ran: string[] = [];
  const session = createSafetySession({ targets: 'bind', onWarning: () => {} });
  const loop = createToolLoop({
    session,
    classify: classifier as typeof classify,
    execute: async (call) => {
      ran.push(call.id);
      return { ok: true };
    },
    onWarning: () => {},
  });
  await loop.runBatch([{ id: 'r1', name: 'list_payees', args: {} }]);
  return { session, loop, ran };
}

describe('a write whose arguments have no digest', () => {
  it('keeps its missing-target placeholder, so binding blocks it', async () => {
    const described = classify.describe('send_money', { amount: 10n });
    expect(described.targets).toEqual([expect.stringMatching(/^\?missing:send_money@unreadable-\d+$/)]);
    // Each such call has a placeholder of its own: approving one approves no other.
    expect(classify.describe('send_money', { amount: 10n }).targets).not.toEqual(described.targets);

    const { loop, ran } = await boundLoop(classify);
    const [out] = await loop.runBatch([{ id: 'w1', name: 'send_money', args: { amount: 10n } }]);
    expect(out?.status).toBe('blocked');
    expect(out?.error?.details?.reasonCode).toBe('TARGET_NOT_VALIDATED');
    expect(ran).toEqual(['r1']);
  });

  it('is a write with a target nothing validates when the classifier throws', async () => {
    const throwing = (name: string) => {
      if (name === 'list_payees') return 'read';
      throw new Error('rules not loaded');
    };
    const { session, loop, ran } = await boundLoop(throwing);
    const [out] = await loop.runBatch([{ id: 'w1', name: 'send_money', args: { to: 'GB33BUKB20201555555555' } }]);
    expect(out?.kind).toBe('write');
    expect(out?.error?.details?.reasonCode).toBe('TARGET_NOT_VALIDATED');
    expect(ran).toEqual(['r1']);
    // The user's words never validate the placeholder, even when they name the tool.
    session.userMessage('use send_money');
    const [again] = await loop.runBatch([{ id: 'w2', name: 'send_money', args: {} }]);
    expect(again?.status).toBe('blocked');
  });
});

describe('callDigest', () => {
  it('refuses cyclic arguments, as JSON does', () => {
    const args: Record<string, unknown> = { to: 'a' };
    args.self = args;
    expect(() => callDigest({ tool: 't', args })).toThrow(TypeError);
  });

  it('refuses arguments that share objects past its bound instead of walking them all', () => {
    let shared: unknown = { v: 1 };
    for (let i = 0; i < 22; i++) shared = { a: shared, b: shared }; // 4 million paths, 23 objects
    expect(() => callDigest({ tool: 't', args: shared })).toThrow(RangeError);
  });

  it('still gives the same digest to the same arguments shared a few times', () => {
    const to = { iban: 'GB29NWBK60161331926819' };
    expect(callDigest({ tool: 't', args: { from: to, to } })).toBe(
      callDigest({ tool: 't', args: { from: { ...to }, to: { ...to } } }),
    );
  });
});
