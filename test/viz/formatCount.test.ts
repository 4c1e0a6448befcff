import { describe, expect, it } from 'vitest';
import { formatCount } from '../../viz/model/format.js';

describe('formatting counts', () => {
  it('should group thousands with commas, whatever the machine locale', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(100_000)).toBe('100,000');
    expect(formatCount(1_234_567)).toBe('1,234,567');
  });
});
