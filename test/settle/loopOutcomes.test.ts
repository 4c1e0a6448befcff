import { describe, expect, it } from 'vitest';
import { createSafetySession, createToolLoop } from 'assistant-safety';
import { OUTCOME_CASES } from './outcomeTable.js';

const classify = (name: string) => (name === 'find' ? 'resolve' : 'write');

describe('the tool loop ends a write by the shared outcome table', () => {
  for (const c of OUTCOME_CASES) {
    it(`should leave ${c.state} when ${c.name}`, async () => {
      const session = createSafetySession();
      const loop = createToolLoop({
        session,
        classify,
        execute: async (call) => {
          if (call.name === 'restart' && c.thrown) throw c.thrown();
          return 'done';
        },
      });
      await loop.runBatch([{ id: 'r', name: 'find', args: {} }]);
      const [outcome] = await loop.runBatch([{ id: 'w', name: 'restart', args: {} }]);
      expect(outcome!.status).toBe(c.thrown ? 'error' : 'ok');
      expect(session.state).toBe(c.state);
      expect(session.inFlightWrite).toBeUndefined();
      const [next] = await loop.runBatch([{ id: 'w2', name: 'restart', args: { again: true } }]);
      expect(next!.status === 'blocked' ? next!.error?.details?.reasonCode : null).toBe(c.next);
    });
  }
});
