import { describe, expect, it } from 'vitest';
import { idOfTransitionRef, transitionRefOf } from '../../viz/editor/model/transitionRefOf.js';

describe('transition ids and edit addresses', () => {
  it('should turn a diagram id into an edit address and back, the root as null', () => {
    expect(transitionRefOf('VERIFYING.CHECK_FINAL_ANSWER[1]')).toEqual({
      source: 'VERIFYING',
      event: 'CHECK_FINAL_ANSWER',
      index: 1,
    });
    expect(transitionRefOf('*.RESET[0]')).toEqual({ source: null, event: 'RESET', index: 0 });
    expect(idOfTransitionRef({ source: null, event: 'RESET', index: 0 })).toBe('*.RESET[0]');
    expect(transitionRefOf('READING')).toBeUndefined();
  });
});
