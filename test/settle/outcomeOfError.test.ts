import { describe, expect, it } from 'vitest';
import { outcomeOfError } from 'assistant-safety';
import { OUTCOME_CASES } from './outcomeTable.js';

describe('outcomeOfError: one rule for what a thrown value means', () => {
  for (const c of OUTCOME_CASES.filter((c) => c.thrown)) {
    it(`should call it ${c.state === 'READING' ? 'failed' : 'unknown'} when ${c.name}`, () => {
      expect(outcomeOfError(c.thrown!())).toBe(c.state === 'READING' ? 'failed' : 'unknown');
    });
  }
});
