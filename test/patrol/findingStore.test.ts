import { describe, expect, it } from 'vitest';
import {
  deriveLoopState,
  EMPTY_FINDING_STORE,
  isAllowedLoopTransition,
  reduceFindings,
  semanticSimilarity,
  type FindingAction,
  type FindingStore,
} from 'assistant-safety/patrol';
import { finding, HOUR, MINUTE, NOW, report } from './fixtures.js';

const DAY = 24 * HOUR;

/** Applies actions in order; returns the store and the last result. */
function run(store: FindingStore, ...actions: FindingAction[]) {
  let result = { store, applied: false } as ReturnType<typeof reduceFindings>;
  for (const a of actions) result = reduceFindings(result.store, a);
  return result;
}

const added = reduceFindings(EMPTY_FINDING_STORE, { type: 'add', report: report(), now: NOW });
const id = added.id!;
const events = (s: FindingStore) => s.findings[id]!.lifecycle.map((e) => e.type);

describe('the findings store: adding', () => {
  it('should create a finding under the id of resource, category and normalised key, with a detected event', () => {
    expect(added).toMatchObject({ applied: true, isNew: true, outcome: 'detected', id: '1111a38b1524c70d' });
    expect(added.store.findings[id]).toMatchObject({
      timesRaised: 1,
      detectedAt: NOW,
      loopState: 'detected',
      key: 'backup-failed',
    });
    expect(events(added.store)).toEqual(['detected']);
  });

  it('should count a re-detection without a heartbeat event', () => {
    const again = run(
      added.store,
      ...[1, 2, 3].map((i) => ({ type: 'add', report: report(), now: NOW + i * MINUTE }) as const),
    );
    expect(again).toMatchObject({ applied: true, isNew: false, outcome: 'updated' });
    expect(again.store.findings[id]).toMatchObject({ timesRaised: 4, lastSeenAt: NOW + 3 * MINUTE });
    expect(events(again.store)).toEqual(['detected']);
  });

  it('should fall back to the title for a missing key, then to llm-finding', () => {
    const titled = reduceFindings(EMPTY_FINDING_STORE, {
      type: 'add',
      report: report({ key: '', title: 'Disk Full' }),
      now: NOW,
    });
    expect(titled.store.findings[titled.id!]!.key).toBe('disk-full');
    const neither = reduceFindings(EMPTY_FINDING_STORE, {
      type: 'add',
      report: report({ key: '!!', title: '??' }),
      now: NOW,
    });
    expect(neither.store.findings[neither.id!]!.key).toBe('llm-finding');
  });

  it('should log content_replaced when the title changes to something unrelated, not for a rephrasing', () => {
    const rephrased = run(added.store, {
      type: 'add',
      report: report({ title: 'Nightly backup of db has failed' }),
      now: NOW,
    });
    expect(events(rephrased.store)).toEqual(['detected']);
    const replaced = run(added.store, {
      type: 'add',
      report: report({ title: 'Replication lag on standby' }),
      now: NOW,
    });
    expect(replaced.outcome).toBe('content_replaced');
    expect(events(replaced.store)).toEqual(['detected', 'content_replaced']);
  });

  it('should merge an equivalent report on the same resource into the active sibling', () => {
    const sibling = run(added.store, {
      type: 'add',
      report: report({ key: 'vzdump-error', title: 'Nightly backup of db failed', severity: 'critical' }),
      now: NOW + MINUTE,
    });
    expect(sibling).toMatchObject({ applied: true, isNew: false, outcome: 'duplicate_merged', id });
    expect(sibling.store.findings[id]).toMatchObject({ timesRaised: 2, severity: 'critical' });
    expect(Object.keys(sibling.store.findings)).toEqual([id]);
  });

  it('should keep distinct issues on one resource apart', () => {
    const other = run(added.store, {
      type: 'add',
      report: report({ key: 'disk-high', category: 'capacity', title: 'Root disk of db almost full' }),
      now: NOW,
    });
    expect(other.isNew).toBe(true);
    expect(Object.keys(other.store.findings)).toHaveLength(2);
  });
});

describe('the findings store: operator feedback', () => {
  it('should keep an expected_behavior dismissal through a re-report at the same severity', () => {
    const r = run(
      added.store,
      { type: 'dismiss', id, reason: 'expected_behavior', now: NOW },
      { type: 'add', report: report(), now: NOW + HOUR },
    );
    expect(r).toMatchObject({ applied: false, isNew: false, outcome: 'seen_while_suppressed' });
    expect(r.store.findings[id]).toMatchObject({
      dismissedReason: 'expected_behavior',
      timesRaised: 2,
      loopState: 'dismissed',
    });
    expect(events(r.store)).toContain('seen_while_suppressed');
  });

  it('should reactivate a not_an_issue dismissal when the severity escalates', () => {
    const r = run(
      added.store,
      { type: 'dismiss', id, reason: 'not_an_issue', now: NOW },
      { type: 'add', report: report({ severity: 'critical' }), now: NOW + HOUR },
    );
    expect(r.applied).toBe(true);
    expect(r.store.findings[id]).toMatchObject({ severity: 'critical', loopState: 'detected' });
    expect(r.store.findings[id]!.dismissedReason).toBeUndefined();
    expect(r.store.findings[id]!.suppressed).toBeUndefined();
  });

  it('should set a reminder 7 days out for will_fix_later, stay quiet before it and wake after it with the note kept', () => {
    const dismissed = run(added.store, {
      type: 'dismiss',
      id,
      reason: 'will_fix_later',
      note: 'after the migration',
      now: NOW,
    });
    expect(dismissed.store.findings[id]!.remindAt).toBe(NOW + 7 * DAY);
    const early = run(dismissed.store, { type: 'add', report: report(), now: NOW + 6 * DAY });
    expect(early.outcome).toBe('seen_while_suppressed');
    const woken = run(dismissed.store, { type: 'add', report: report(), now: NOW + 8 * DAY });
    expect(woken.applied).toBe(true);
    expect(woken.store.findings[id]).toMatchObject({
      userNote: 'after the migration',
      remindCount: 1,
      loopState: 'detected',
    });
    expect(events(woken.store)).toContain('reminded');
  });

  it('should clear remindAt for other reasons and on undismiss; not_an_issue suppresses', () => {
    expect(
      run(added.store, { type: 'dismiss', id, reason: 'expected_behavior', now: NOW }).store.findings[id]!.remindAt,
    ).toBeUndefined();
    const notAnIssue = run(added.store, { type: 'dismiss', id, reason: 'not_an_issue', now: NOW }).store.findings[id]!;
    expect([notAnIssue.suppressed, notAnIssue.remindAt]).toEqual([true, undefined]);
    const undone = run(
      added.store,
      { type: 'dismiss', id, reason: 'will_fix_later', now: NOW },
      { type: 'undismiss', id, now: NOW + MINUTE },
    ).store.findings[id]!;
    expect([undone.dismissedReason, undone.remindAt, undone.acknowledgedAt, undone.loopState]).toEqual([
      undefined,
      undefined,
      undefined,
      'detected',
    ]);
  });

  it('should suppress with a rule that drops new reports on the resource and category', () => {
    const r = run(added.store, { type: 'suppress', id, now: NOW });
    expect(r.store.findings[id]).toMatchObject({
      suppressed: true,
      dismissedReason: 'suppressed',
      loopState: 'suppressed',
    });
    expect(r.store.suppressionRules).toEqual([{ resourceId: 'vm/100', category: 'backup' }]);
    const dropped = run(r.store, {
      type: 'add',
      report: report({ key: 'backup-stale', title: 'No recent backup' }),
      now: NOW,
    });
    expect(dropped).toMatchObject({ applied: false, outcome: 'suppressed_by_rule' });
    expect(run(r.store, { type: 'add', report: report(), now: NOW }).outcome).toBe('seen_while_suppressed');
  });

  it('should snooze an open finding and refuse to snooze a resolved one', () => {
    const snoozed = run(added.store, { type: 'snooze', id, until: NOW + HOUR, now: NOW });
    expect(snoozed.store.findings[id]!.loopState).toBe('snoozed');
    expect(deriveLoopState(snoozed.store.findings[id]!, NOW + 2 * HOUR)).toBe('detected');
    const resolved = run(added.store, { type: 'resolve', id, now: NOW });
    expect(run(resolved.store, { type: 'snooze', id, until: NOW + HOUR, now: NOW })).toMatchObject({
      applied: false,
      outcome: 'not_active',
    });
    expect(run(EMPTY_FINDING_STORE, { type: 'snooze', id, until: NOW, now: NOW }).outcome).toBe('not_found');
  });
});

describe('the findings store: resolution and regression', () => {
  it('should resolve only active findings', () => {
    const r = run(added.store, { type: 'resolve', id, now: NOW, auto: true, reason: 'cleared' });
    expect(r.store.findings[id]).toMatchObject({
      resolvedAt: NOW,
      autoResolved: true,
      resolveReason: 'cleared',
      loopState: 'resolved',
    });
    expect(events(r.store)).toEqual(['detected', 'auto_resolved']);
    expect(run(r.store, { type: 'resolve', id, now: NOW }).applied).toBe(false);
  });

  it('should bring a resolved finding back as a regression, clearing resolution, acknowledgement and investigation', () => {
    const r = run(
      added.store,
      { type: 'investigation', id, status: 'running', now: NOW },
      { type: 'investigation', id, status: 'completed', outcome: 'fix_executed', now: NOW + MINUTE },
      { type: 'resolve', id, now: NOW + HOUR, reason: 'restarted the backup job' },
      { type: 'add', report: report(), now: NOW + 2 * HOUR },
    );
    expect(r.outcome).toBe('regressed');
    const f = r.store.findings[id]!;
    expect(f).toMatchObject({
      regressionCount: 1,
      lastRegressionAt: NOW + 2 * HOUR,
      previousResolvedFixSummary: 'restarted the backup job',
      loopState: 'detected',
      investigationAttempts: 0,
    });
    expect([f.resolvedAt, f.investigationOutcome, f.lastInvestigatedAt, f.acknowledgedAt]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(events(r.store)).toContain('regressed');
  });

  it('should clean up findings resolved over a day ago and dismissed ones unseen for 30 days, keeping suppressed ones', () => {
    const store: FindingStore = {
      suppressionRules: [],
      findings: {
        old: finding({ id: 'old', resolvedAt: NOW - 25 * HOUR }),
        recent: finding({ id: 'recent', resolvedAt: NOW - 23 * HOUR }),
        stale: finding({ id: 'stale', dismissedReason: 'expected_behavior', lastSeenAt: NOW - 31 * DAY }),
        quiet: finding({ id: 'quiet', suppressed: true, dismissedReason: 'suppressed', lastSeenAt: NOW - 31 * DAY }),
        open: finding({ id: 'open', lastSeenAt: NOW - 90 * DAY }),
      },
    };
    expect(Object.keys(run(store, { type: 'cleanup', now: NOW }).store.findings).sort()).toEqual([
      'open',
      'quiet',
      'recent',
    ]);
  });
});

describe('the findings store: loop states', () => {
  it('should derive the loop state by the first rule that applies', () => {
    const f = finding();
    expect(deriveLoopState(f, NOW)).toBe('detected');
    expect(deriveLoopState({ ...f, investigationStatus: 'running' }, NOW)).toBe('investigating');
    expect(deriveLoopState({ ...f, investigationStatus: 'needs_attention' }, NOW)).toBe('needs_attention');
    expect(deriveLoopState({ ...f, investigationOutcome: 'fix_queued' }, NOW)).toBe('remediation_planned');
    expect(deriveLoopState({ ...f, investigationOutcome: 'fix_executed' }, NOW)).toBe('remediating');
    expect(deriveLoopState({ ...f, investigationOutcome: 'fix_verification_failed' }, NOW)).toBe('remediation_failed');
    expect(deriveLoopState({ ...f, investigationOutcome: 'cannot_fix' }, NOW)).toBe('needs_attention');
    expect(deriveLoopState({ ...f, investigationOutcome: 'timed_out' }, NOW)).toBe('timed_out');
    expect(deriveLoopState({ ...f, investigationOutcome: 'fix_verified' }, NOW)).toBe('resolved');
    expect(deriveLoopState({ ...f, suppressed: true, resolvedAt: NOW }, NOW)).toBe('suppressed');
    expect(deriveLoopState({ ...f, dismissedReason: 'expected_behavior', investigationStatus: 'running' }, NOW)).toBe(
      'dismissed',
    );
  });

  it('should allow only the documented transitions out of resolved, suppressed, dismissed and snoozed', () => {
    expect(isAllowedLoopTransition(undefined, 'resolved')).toBe(true);
    expect(isAllowedLoopTransition('resolved', 'detected')).toBe(true);
    expect(isAllowedLoopTransition('resolved', 'investigating')).toBe(false);
    expect(isAllowedLoopTransition('suppressed', 'resolved')).toBe(false);
    expect(isAllowedLoopTransition('dismissed', 'resolved')).toBe(true);
    expect(isAllowedLoopTransition('dismissed', 'needs_attention')).toBe(false);
    expect(isAllowedLoopTransition('snoozed', 'dismissed')).toBe(true);
    expect(isAllowedLoopTransition('snoozed', 'investigating')).toBe(false);
    expect(isAllowedLoopTransition('investigating', 'remediating')).toBe(true);
    expect(isAllowedLoopTransition('bogus', 'detected')).toBe(false);
    expect(isAllowedLoopTransition('detected', 'bogus')).toBe(false);
  });

  it('should keep the old loop state and log a violation for a transition that is not allowed', () => {
    const r = run(
      added.store,
      { type: 'investigation', id, status: 'needs_attention', now: NOW },
      { type: 'dismiss', id, reason: 'expected_behavior', now: NOW },
    );
    expect(r.store.findings[id]!.loopState).toBe('dismissed');
    const undismissed = run(r.store, { type: 'undismiss', id, now: NOW });
    const f = undismissed.store.findings[id]!;
    expect(f.loopState).toBe('dismissed');
    expect(f.lifecycle.at(-1)).toMatchObject({
      type: 'loop_transition_violation',
      from: 'dismissed',
      to: 'needs_attention',
    });
  });

  it('should keep at most 50 lifecycle events', () => {
    let s = added.store;
    for (let i = 0; i < 60; i++) s = run(s, { type: 'snooze', id, until: NOW + i, now: NOW }).store;
    expect(s.findings[id]!.lifecycle).toHaveLength(50);
  });
});

describe('semantic similarity', () => {
  const a = {
    resourceId: 'vm1',
    category: 'performance',
    key: '',
    title: 'High CPU usage on web',
    description: 'CPU above 90 percent',
  };

  it('should score by the reference ranges', () => {
    expect(semanticSimilarity(undefined, a)).toBe(0);
    expect(
      semanticSimilarity(a, {
        ...a,
        resourceId: 'vm2',
        category: 'backup',
        title: 'Backup failed',
        description: 'Task error',
      }),
    ).toBeLessThanOrEqual(0.1);
    const resourceOnly = semanticSimilarity(a, {
      ...a,
      category: 'backup',
      title: 'Backup failed',
      description: 'Task error',
    });
    expect(resourceOnly).toBeGreaterThanOrEqual(0.3);
    expect(resourceOnly).toBeLessThanOrEqual(0.4);
    const categoryOnly = semanticSimilarity(a, {
      ...a,
      resourceId: 'vm2',
      title: 'Backup failed',
      description: 'Task error',
    });
    expect(categoryOnly).toBeGreaterThanOrEqual(0.2);
    expect(categoryOnly).toBeLessThanOrEqual(0.4);
    const both = semanticSimilarity(a, { ...a, title: 'Backup failed', description: 'Task error' });
    expect(both).toBeGreaterThanOrEqual(0.5);
    expect(both).toBeLessThanOrEqual(0.6);
    const duplicate = semanticSimilarity(a, { ...a });
    expect(duplicate).toBeGreaterThanOrEqual(0.7);
    expect(duplicate).toBeLessThanOrEqual(0.9);
    expect(semanticSimilarity({ ...a, key: 'cpu-high' }, { ...a, key: 'cpu-high' })).toBe(1);
  });
});
