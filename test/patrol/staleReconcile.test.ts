import { describe, expect, it } from 'vitest';
import { staleFindingPlan, type Finding } from 'assistant-safety/patrol';
import { finding } from './fixtures.js';

const findings: Record<string, Finding> = {
  cap: finding({ id: 'cap', category: 'capacity', key: 'disk-high' }),
  perf: finding({ id: 'perf', category: 'performance', key: 'cpu-high' }),
  rel: finding({ id: 'rel', category: 'reliability', key: 'container-restarts' }),
  sec: finding({ id: 'sec', category: 'security', key: 'open-port' }),
  gen: finding({ id: 'gen', category: 'general', key: 'misc' }),
  bak: finding({ id: 'bak', category: 'backup', key: 'pbs-job-failed' }),
  b1: finding({ id: 'b1', category: 'backup', key: 'backup-failed' }),
  b2: finding({ id: 'b2', category: 'backup', key: 'backup-stale' }),
  b3: finding({ id: 'b3', category: 'reliability', key: 'smart-failure' }),
  b4: finding({ id: 'b4', category: 'reliability', key: 'guest-unreachable' }),
};
const plan = (o: Partial<Parameters<typeof staleFindingPlan>[0]>) =>
  staleFindingPlan({ findings, seeded: [], touched: [], resolved: [], runHadErrors: false, ...o });

describe('stale reconcile plan', () => {
  it('should resolve a seeded capacity or performance finding nobody re-confirmed', () => {
    expect(plan({ seeded: ['cap', 'perf'] })).toEqual({ resolve: ['cap', 'perf'], verify: [] });
  });

  it('should do nothing when the run had errors or seeded nothing', () => {
    expect(plan({ seeded: ['cap'], runHadErrors: true })).toEqual({ resolve: [], verify: [] });
    expect(plan({ seeded: [] })).toEqual({ resolve: [], verify: [] });
  });

  it('should keep findings that were reported, assessed or resolved in the run', () => {
    expect(plan({ seeded: ['cap', 'perf'], touched: ['cap'], resolved: ['perf'] })).toEqual({
      resolve: [],
      verify: [],
    });
  });

  it('should only consider seeded findings', () => {
    expect(plan({ seeded: ['perf'] }).resolve).toEqual(['perf']);
  });

  it('should leave other categories without a verifier key alone (pbs-job-failed has none)', () => {
    expect(plan({ seeded: ['rel', 'sec', 'gen', 'bak'] })).toEqual({ resolve: [], verify: [] });
  });

  it('should verify at most 3 candidates with a verifier key and defer the rest', () => {
    expect(plan({ seeded: ['b1', 'b2', 'b3', 'b4'] })).toEqual({ resolve: [], verify: ['b1', 'b2', 'b3'] });
  });

  it('should skip a finding already resolved', () => {
    expect(plan({ findings: { cap: { ...findings.cap!, resolvedAt: 1 } }, seeded: ['cap'] }).resolve).toEqual([]);
  });
});
