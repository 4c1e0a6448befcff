import { describe, expect, it } from 'vitest';
import { investigationCooldownMs, shouldInvestigate, type InvestigationOutcome } from 'assistant-safety/patrol';
import { finding, MINUTE, NOW } from './fixtures.js';

const base = finding();

describe('shouldInvestigate: autonomy, state and severity', () => {
  it.each([
    ['approval', true],
    ['assisted', true],
    ['full', true],
    ['anything-else', true],
    ['', false],
    ['monitor', false],
  ])('autonomy %j → %s', (autonomy, expected) => {
    expect(shouldInvestigate(base, autonomy, NOW)).toBe(expected);
  });

  it('should refuse resolved, suppressed and dismissed findings', () => {
    expect(shouldInvestigate({ ...base, resolvedAt: NOW - MINUTE }, 'approval', NOW)).toBe(false);
    expect(shouldInvestigate({ ...base, suppressed: true }, 'approval', NOW)).toBe(false);
    expect(shouldInvestigate({ ...base, dismissedReason: 'expected_behavior' }, 'approval', NOW)).toBe(false);
  });

  it('should refuse while snoozed and allow once the snooze ended', () => {
    expect(shouldInvestigate({ ...base, snoozedUntil: NOW + MINUTE }, 'approval', NOW)).toBe(false);
    expect(shouldInvestigate({ ...base, snoozedUntil: NOW - MINUTE }, 'approval', NOW)).toBe(true);
  });

  it('should investigate warning and critical only', () => {
    expect(shouldInvestigate({ ...base, severity: 'info' }, 'approval', NOW)).toBe(false);
    expect(shouldInvestigate({ ...base, severity: 'watch' }, 'approval', NOW)).toBe(false);
    expect(shouldInvestigate({ ...base, severity: 'critical' }, 'approval', NOW)).toBe(true);
  });

  it('should refuse a queued fix and every final outcome, and allow an executed fix after its cooldown', () => {
    const longAgo = NOW - 61 * MINUTE;
    for (const outcome of [
      'fix_queued',
      'fix_verified',
      'resolved',
      'fix_rejected',
      'cannot_fix',
      'needs_attention',
      'fix_verification_unknown',
    ] as const)
      expect(
        shouldInvestigate({ ...base, investigationOutcome: outcome, lastInvestigatedAt: longAgo }, 'full', NOW),
        outcome,
      ).toBe(false);
    expect(
      shouldInvestigate({ ...base, investigationOutcome: 'fix_executed', lastInvestigatedAt: longAgo }, 'full', NOW),
    ).toBe(true);
  });

  it('should refuse after 3 attempts and allow after 2', () => {
    expect(shouldInvestigate({ ...base, investigationAttempts: 3 }, 'approval', NOW)).toBe(false);
    expect(shouldInvestigate({ ...base, investigationAttempts: 2 }, 'approval', NOW)).toBe(true);
  });

  it('should refuse while an investigation is running', () => {
    expect(shouldInvestigate({ ...base, investigationStatus: 'running' }, 'approval', NOW)).toBe(false);
  });

  it('should refuse just after an investigation and allow two hours later', () => {
    expect(shouldInvestigate({ ...base, lastInvestigatedAt: NOW }, 'approval', NOW)).toBe(false);
    expect(shouldInvestigate({ ...base, lastInvestigatedAt: NOW - 120 * MINUTE }, 'approval', NOW)).toBe(true);
  });
});

describe('shouldInvestigate: cooldowns at and around each boundary', () => {
  const at = (outcome: InvestigationOutcome | undefined, minutes: number, extraMs = 0) =>
    shouldInvestigate(
      {
        ...base,
        ...(outcome && { investigationOutcome: outcome }),
        investigationStatus: outcome ? 'failed' : 'completed',
        lastInvestigatedAt: NOW - minutes * MINUTE - extraMs,
      },
      'approval',
      NOW,
    );

  it.each([
    ['timed_out', 5, false],
    ['timed_out', 9, false],
    ['timed_out', 10, true],
    ['timed_out', 15, true],
    ['fix_failed', 15, false],
    ['fix_failed', 19, false],
    ['fix_failed', 20, true],
    ['fix_failed', 25, true],
    ['fix_verification_failed', 19, false],
    ['fix_verification_failed', 20, true],
    [undefined, 15, false],
    [undefined, 59, false],
    [undefined, 60, true],
    [undefined, 61, true],
    [undefined, 120, true],
  ] as const)('outcome %j, %i min ago → %s', (outcome, minutes, expected) => {
    expect(at(outcome, minutes)).toBe(expected);
  });

  it('should compare strictly: one millisecond short of a cooldown is still cooling down', () => {
    expect(at('timed_out', 10, -1)).toBe(false);
    expect(at('fix_failed', 20, -1)).toBe(false);
    expect(at(undefined, 60, -1)).toBe(false);
  });

  it('should name the cooldowns: 10, 20 and 60 minutes', () => {
    expect(investigationCooldownMs('timed_out')).toBe(10 * MINUTE);
    expect(investigationCooldownMs('fix_failed')).toBe(20 * MINUTE);
    expect(investigationCooldownMs('fix_verification_failed')).toBe(20 * MINUTE);
    expect(investigationCooldownMs('fix_executed')).toBe(60 * MINUTE);
    expect(investigationCooldownMs(undefined)).toBe(60 * MINUTE);
  });
});
