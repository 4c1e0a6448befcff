import { describe, expect, it } from 'vitest';
import { auditFigures } from '../../bench/auditSuite.js';

/*
 * The audit's bench suite at a tiny size: it runs, audits every generated trace (it checks its own
 * counts and throws otherwise), and gives finite figures with a same-run JSON.parse baseline.
 * Figures only: no timed assertion.
 */

describe('the audit bench suite', () => {
  it('should measure traces/s and calls/s against bare JSON.parse, and the heap growth', async () => {
    const figures = await auditFigures({ traces: 100, runs: 1 });
    expect(figures.map((f) => f.unit)).toEqual(['traces/s', 'calls/s', 'MB']);
    for (const f of figures) expect(Number.isFinite(f.median) && f.median > 0, f.name).toBe(true);
    for (const f of figures.slice(0, 2)) expect(f.baseline!.median).toBeGreaterThan(0);
    expect(figures[0]!.note).toMatch(/^100 traces, [\d,]+ calls/);
  });
});
