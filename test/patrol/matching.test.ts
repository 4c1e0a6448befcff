import { describe, expect, it } from 'vitest';
import {
  decisionFloorFlags,
  reachabilitySignals,
  triageFlagsToSignals,
  unmatchedSignals,
  type Signal,
  type TriageFlag,
} from 'assistant-safety/patrol';

const signal = (resourceId: string, category: string, type = 'x'): Signal => ({
  type,
  resourceId,
  resourceName: resourceId,
  resourceType: 'node',
  severity: 'warning',
  category,
  summary: '',
  evidence: '',
});

describe('unmatchedSignals: the exact rule', () => {
  const signals = [signal('pve1', 'reliability'), signal('node1', 'performance'), signal('local-lvm', 'capacity')];

  it('should leave the signals whose resource and category no finding has, in order', () => {
    const left = unmatchedSignals(signals, [{ resourceId: 'pve1', category: 'reliability' }]);
    expect(left.map((s) => s.resourceId)).toEqual(['node1', 'local-lvm']);
  });

  it('should leave nothing when every signal is matched, and nothing for no signals', () => {
    const all = signals.map((s) => ({ resourceId: s.resourceId, category: s.category }));
    expect(unmatchedSignals(signals, all)).toEqual([]);
    expect(unmatchedSignals([], all)).toEqual([]);
  });

  it('should not match across categories, names, case or id spellings (the documented blind spot)', () => {
    expect(
      unmatchedSignals([signal('pve1', 'reliability')], [{ resourceId: 'node/pve1', category: 'reliability' }]),
    ).toHaveLength(1);
    expect(
      unmatchedSignals([signal('pve1', 'reliability')], [{ resourceId: 'pve1', category: 'performance' }]),
    ).toHaveLength(1);
    expect(
      unmatchedSignals([signal('PVE1', 'reliability')], [{ resourceId: 'pve1', category: 'reliability' }]),
    ).toHaveLength(1);
  });

  it('should neither deduplicate nor check severity', () => {
    const twice = [signal('n', 'performance'), signal('n', 'performance')];
    expect(unmatchedSignals(twice, [])).toHaveLength(2);
    expect(
      unmatchedSignals(
        [{ ...signal('n', 'performance'), severity: 'critical' }],
        [{ resourceId: 'n', category: 'performance' }],
      ),
    ).toEqual([]);
  });
});

describe('reachability signals', () => {
  const intel = {
    'qemu/100': { name: 'db-server', guestType: 'vm', reachable: false },
    'lxc/101': { name: 'web', guestType: 'system-container', reachable: true },
    'qemu/102': { name: 'unprobed', guestType: 'vm', reachable: null },
    'qemu/103': { name: 'also-unprobed', guestType: 'vm' },
  };

  it('should raise one connectivity warning per guest that was probed and did not answer', () => {
    expect(reachabilitySignals(intel)).toEqual([
      {
        type: 'guest_unreachable',
        resourceId: 'qemu/100',
        resourceName: 'db-server',
        resourceType: 'vm',
        severity: 'warning',
        category: 'connectivity',
        summary: 'Guest db-server is running but not responding to ping',
        evidence: 'ICMP ping from host node returned no response',
      },
    ]);
    expect(reachabilitySignals(undefined)).toEqual([]);
    expect(reachabilitySignals({ 'lxc/101': intel['lxc/101'] })).toEqual([]);
  });

  it('should stay unmatched even with a reliability finding on the same guest', () => {
    expect(
      unmatchedSignals(reachabilitySignals(intel), [{ resourceId: 'qemu/100', category: 'reliability' }]),
    ).toHaveLength(1);
  });
});

describe('triage floor signals', () => {
  const flag = (category: string, over: Partial<TriageFlag> = {}): TriageFlag => ({
    resourceId: `r-${category}`,
    category,
    severity: 'WARNING',
    reason: `${category} flag`,
    ...over,
  });

  it('should select lifecycle evidence in priority order and drop metric flags', () => {
    const flags = ['performance', 'anomaly', 'health', 'reliability', 'backup', 'connectivity', 'capacity'].map((c) =>
      flag(c),
    );
    expect(decisionFloorFlags(flags).map((f) => f.category)).toEqual([
      'health',
      'reliability',
      'backup',
      'connectivity',
      'anomaly',
    ]);
  });

  it('should keep at most 20', () => {
    expect(
      decisionFloorFlags(Array.from({ length: 25 }, (_, i) => flag('health', { resourceId: `d${i}` }))),
    ).toHaveLength(20);
  });

  it('should convert flags to signals with mapped categories and drop flags with neither id nor name', () => {
    const flags = [
      flag('health'),
      flag('connectivity'),
      flag('reliability'),
      flag('anomaly', { metric: 'memory' }),
      flag('anomaly', { metric: 'usage' }),
      flag('custom'),
      flag('backup', { resourceId: undefined, resourceName: undefined }),
    ];
    const signals = triageFlagsToSignals(flags);
    expect(signals.map((s) => s.category)).toEqual([
      'reliability',
      'reliability',
      'reliability',
      'performance',
      'capacity',
      'general',
    ]);
    expect(signals[0]).toMatchObject({
      type: 'triage_health',
      severity: 'warning',
      summary: 'health flag',
      evidence: 'health flag',
      toolCallId: 'deterministic-triage',
    });
    expect(triageFlagsToSignals([flag('anomaly', { metric: 'network' })])[0]!.category).toBe('general');
  });
});
