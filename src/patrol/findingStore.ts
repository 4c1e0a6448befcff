import { z } from 'zod';
import {
  deriveLoopState,
  DismissReason,
  Finding,
  FindingReport,
  InvestigationOutcome,
  InvestigationStatus,
  isActiveFinding,
  isAllowedLoopTransition,
  LIFECYCLE_MAX,
  type LifecycleEvent,
  type LifecycleEventType,
} from './Finding.js';
import { generateFindingId, normalizeFindingKey } from './findingId.js';
import { SEVERITIES, type Severity } from './Signal.js';

const DAY = 86_400_000;

/** A dismissed `will_fix_later` finding wakes this long after dismissal. */
export const REMIND_AFTER_MS = 7 * DAY;
/** Resolved findings are deleted by cleanup this long after resolution. */
export const RESOLVED_RETENTION_MS = DAY;
/** Dismissed (not suppressed) findings are deleted by cleanup this long after they were last seen. */
export const DISMISSED_RETENTION_MS = 30 * DAY;
/** Siblings on one resource merge at this semantic similarity or above. */
export const MERGE_SIMILARITY = 0.78;

/** Drops reports on a resource and category (an empty field matches any). */
export const SuppressionRule = z.object({
  resourceId: z.optional(z.string()),
  category: z.optional(z.string()),
});
export type SuppressionRule = z.infer<typeof SuppressionRule>;

/** Every finding by id, and the suppression rules. Plain JSON: persist it as it is. */
export const FindingStore = z.object({
  findings: z.record(z.string(), Finding),
  suppressionRules: z.array(SuppressionRule),
});
export type FindingStore = z.infer<typeof FindingStore>;

/** A store with nothing in it. */
export const EMPTY_FINDING_STORE: FindingStore = { findings: {}, suppressionRules: [] };

/** Everything the store does, as data. `now` is the caller's clock (epoch ms): the reducer reads no clock. */
export type FindingAction =
  | { type: 'add'; report: FindingReport; now: number }
  | { type: 'resolve'; id: string; now: number; auto?: boolean; reason?: string }
  | { type: 'dismiss'; id: string; reason: Exclude<DismissReason, 'suppressed'>; note?: string; now: number }
  | { type: 'undismiss'; id: string; now: number }
  | { type: 'snooze'; id: string; until: number; now: number }
  | { type: 'suppress'; id: string; now: number }
  | { type: 'investigation'; id: string; status: InvestigationStatus; outcome?: InvestigationOutcome; now: number }
  | { type: 'cleanup'; now: number };

/** The store after an action, and what the action did. */
export interface FindingStoreResult {
  store: FindingStore;
  /** Whether anything was changed (a refused or no-op action changes nothing). */
  applied: boolean;
  /** The finding acted on (for `add`: the one created or merged into). */
  id?: string;
  /** `add` only: a finding was created. */
  isNew?: boolean;
  /** What happened, in a word: the lifecycle event written, or why nothing was. */
  outcome: LifecycleEventType | 'updated' | 'not_found' | 'not_active' | 'suppressed_by_rule' | 'cleaned';
}

const rank = (s: Severity) => SEVERITIES.indexOf(s);

const STOP_WORDS = new Set([
  'the',
  'and',
  'for',
  'with',
  'from',
  'that',
  'this',
  'are',
  'was',
  'has',
  'have',
  'not',
  'but',
  'its',
  'into',
  'over',
  'than',
  'then',
  'been',
  'being',
  'will',
  'can',
  'may',
  'all',
  'any',
  'our',
  'your',
]);

/** Lower-cased alphanumeric runs longer than two characters, without stop words. */
function keywords(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length > 2 && !STOP_WORDS.has(w)));
}

function jaccard(a: string, b: string): number {
  const x = keywords(a);
  const y = keywords(b);
  if (x.size === 0 && y.size === 0) return 0;
  let both = 0;
  for (const w of x) if (y.has(w)) both++;
  return both / (x.size + y.size - both);
}

/**
 * How alike two findings are, 0 to 1: 0.3 for the same resource, 0.2 for the
 * same category, 0.4 for the same non-empty key, plus 0.2 × the keyword
 * overlap of the titles and 0.1 × that of the descriptions.
 *
 * @example
 * semanticSimilarity(a, { ...a, id: 'other' }); // 1
 */
export function semanticSimilarity(a: SimilarityInput | undefined, b: SimilarityInput | undefined): number {
  if (!a || !b) return 0;
  let score = 0;
  if (a.resourceId === b.resourceId) score += 0.3;
  if (a.category === b.category) score += 0.2;
  if (a.key !== '' && a.key === b.key) score += 0.4;
  score += 0.2 * jaccard(a.title, b.title) + 0.1 * jaccard(a.description, b.description);
  return Math.min(1, score);
}

/** What {@link semanticSimilarity} compares; a {@link Finding} will do. */
export interface SimilarityInput {
  resourceId: string;
  category: string;
  key: string;
  title: string;
  description: string;
}

const normalTitle = (t: string) => [...keywords(t)].join(' ');

function withEvent(f: Finding, event: LifecycleEvent): Finding {
  return { ...f, lifecycle: [...f.lifecycle, event].slice(-LIFECYCLE_MAX) };
}

/** Applies the loop-state rule: a transition it does not allow keeps the old state and is logged as a violation. */
function settle(before: Finding | undefined, after: Finding, now: number): Finding {
  const to = deriveLoopState(after, now);
  const from = before?.loopState;
  if (isAllowedLoopTransition(from, to)) return { ...after, loopState: to };
  return withEvent(
    { ...after, loopState: from },
    { at: now, type: 'loop_transition_violation', from, to, message: `${from} may not become ${to}` },
  );
}

function put(store: FindingStore, before: Finding | undefined, after: Finding, now: number): FindingStore {
  return { ...store, findings: { ...store.findings, [after.id]: settle(before, after, now) } };
}

function add(store: FindingStore, report: FindingReport, now: number): FindingStoreResult {
  const key = normalizeFindingKey(report.key) || normalizeFindingKey(report.title) || 'llm-finding';
  const id = generateFindingId(report.resourceId, report.category, key);
  const existing = store.findings[id];
  const content = {
    title: report.title,
    description: report.description,
    severity: report.severity,
    ...(report.impact !== undefined && { impact: report.impact }),
    ...(report.recommendation !== undefined && { recommendation: report.recommendation }),
    ...(report.evidence !== undefined && { evidence: report.evidence }),
  };

  if (existing) {
    let f: Finding = existing;
    if (f.dismissedReason !== undefined || f.suppressed) {
      const escalated = rank(report.severity) > rank(f.severity);
      const remindDue =
        f.dismissedReason === 'will_fix_later' && !f.suppressed && f.remindAt !== undefined && f.remindAt <= now;
      if (!escalated && !remindDue) {
        f = withEvent(
          { ...f, lastSeenAt: now, timesRaised: f.timesRaised + 1 },
          { at: now, type: 'seen_while_suppressed' },
        );
        return {
          store: put(store, existing, f, now),
          applied: false,
          id,
          isNew: false,
          outcome: 'seen_while_suppressed',
        };
      }
      const { dismissedReason: _d, suppressed: _s, remindAt: _r, acknowledgedAt: _a, userNote, ...rest } = f;
      f =
        remindDue && !escalated
          ? withEvent({ ...rest, userNote, remindCount: (f.remindCount ?? 0) + 1 } as Finding, {
              at: now,
              type: 'reminded',
            })
          : withEvent(rest as Finding, { at: now, type: 'suppression_lifted' });
    }
    let outcome: FindingStoreResult['outcome'] = 'updated';
    if (f.title !== report.title && jaccard(f.title, report.title) <= 0.2) {
      f = withEvent(f, { at: now, type: 'content_replaced', from: f.title, to: report.title });
      outcome = 'content_replaced';
    }
    f = { ...f, ...content, lastSeenAt: now, timesRaised: f.timesRaised + 1 };
    if (f.resolvedAt !== undefined) {
      const {
        resolvedAt: _ra,
        autoResolved: _ar,
        resolveReason,
        acknowledgedAt: _ack,
        investigationStatus: _is,
        investigationOutcome: _io,
        lastInvestigatedAt: _li,
        ...rest
      } = f;
      f = withEvent(
        {
          ...rest,
          investigationAttempts: 0,
          ...(resolveReason !== undefined && { previousResolvedFixSummary: resolveReason }),
          regressionCount: f.regressionCount + 1,
          lastRegressionAt: now,
        },
        { at: now, type: 'regressed' },
      );
      outcome = 'regressed';
    }
    return { store: put(store, existing, f, now), applied: true, id, isNew: false, outcome };
  }

  if (
    store.suppressionRules.some(
      (r) => (!r.resourceId || r.resourceId === report.resourceId) && (!r.category || r.category === report.category),
    )
  )
    return { store, applied: false, id, isNew: false, outcome: 'suppressed_by_rule' };

  const candidate = {
    resourceId: report.resourceId,
    category: report.category,
    key,
    title: report.title,
    description: report.description,
  };
  const sibling = Object.values(store.findings).find(
    (s) =>
      s.id !== id &&
      isActiveFinding(s, now) &&
      (s.resourceId === report.resourceId || (s.resourceName !== '' && s.resourceName === report.resourceName)) &&
      (normalTitle(s.title) === normalTitle(report.title) ||
        (s.category === report.category && semanticSimilarity(s, candidate) >= MERGE_SIMILARITY)),
  );
  if (sibling) {
    const takeIncoming = rank(report.severity) >= rank(sibling.severity);
    const nonEmpty = Object.fromEntries(Object.entries(content).filter(([, v]) => v !== ''));
    const merged = withEvent(
      { ...sibling, ...(takeIncoming && nonEmpty), lastSeenAt: now, timesRaised: sibling.timesRaised + 1 },
      { at: now, type: 'duplicate_merged', message: `report ${id} merged` },
    );
    return {
      store: put(store, sibling, merged, now),
      applied: true,
      id: sibling.id,
      isNew: false,
      outcome: 'duplicate_merged',
    };
  }

  const created: Finding = withEvent(
    {
      ...report,
      key,
      id,
      detectedAt: now,
      lastSeenAt: now,
      timesRaised: 1,
      investigationAttempts: 0,
      lifecycle: [],
      regressionCount: 0,
    },
    { at: now, type: 'detected' },
  );
  return { store: put(store, undefined, created, now), applied: true, id, isNew: true, outcome: 'detected' };
}

/**
 * The findings store as a pure reducer: the store and an action in, the new
 * store and what happened out. Nothing is mutated; the clock is the action's.
 *
 * - `add`: a report with a new id creates a finding (unless a suppression rule
 *   drops it, or an active sibling on the same resource says the same and
 *   absorbs it); with a known id it updates it: a dismissed or suppressed one
 *   is only counted (`seen_while_suppressed`) unless its severity escalated or
 *   its reminder is due, a resolved one comes back (`regressed`).
 * - `resolve`, `dismiss`, `undismiss`, `snooze`, `suppress`, `investigation`
 *   (status and outcome of an investigation), `cleanup` (drops findings
 *   resolved over a day ago and dismissed ones unseen for 30 days).
 *
 * Each finding's loop state follows {@link deriveLoopState}; a change
 * {@link isAllowedLoopTransition} refuses keeps the old state and logs a
 * `loop_transition_violation`.
 *
 * @example
 * let { store, id } = reduceFindings(EMPTY_FINDING_STORE, { type: 'add', report, now });
 * ({ store } = reduceFindings(store, { type: 'resolve', id: id!, now }));
 */
export function reduceFindings(store: FindingStore, action: FindingAction): FindingStoreResult {
  const { now } = action;
  if (action.type === 'add') return add(store, action.report, now);
  if (action.type === 'cleanup') {
    const kept = Object.fromEntries(
      Object.entries(store.findings).filter(
        ([, f]) =>
          !(f.resolvedAt !== undefined && now - f.resolvedAt > RESOLVED_RETENTION_MS) &&
          !(f.dismissedReason !== undefined && !f.suppressed && now - f.lastSeenAt > DISMISSED_RETENTION_MS),
      ),
    );
    const removed = Object.keys(store.findings).length - Object.keys(kept).length;
    return { store: { ...store, findings: kept }, applied: removed > 0, outcome: 'cleaned' };
  }
  const f = store.findings[action.id];
  if (!f) return { store, applied: false, id: action.id, outcome: 'not_found' };
  const done = (next: Finding, outcome: FindingStoreResult['outcome']): FindingStoreResult => ({
    store: put(store, f, next, now),
    applied: true,
    id: f.id,
    outcome,
  });
  switch (action.type) {
    case 'resolve': {
      if (!isActiveFinding(f, now)) return { store, applied: false, id: f.id, outcome: 'not_active' };
      const type = action.auto ? 'auto_resolved' : 'resolved';
      return done(
        withEvent(
          {
            ...f,
            resolvedAt: now,
            autoResolved: action.auto ?? false,
            ...(action.reason !== undefined && { resolveReason: action.reason }),
          },
          { at: now, type, ...(action.reason !== undefined && { message: action.reason }) },
        ),
        type,
      );
    }
    case 'dismiss': {
      const { remindAt: _r, ...rest } = f;
      const next: Finding = {
        ...rest,
        dismissedReason: action.reason,
        acknowledgedAt: now,
        ...(action.note !== undefined && { userNote: action.note }),
        ...(action.reason === 'not_an_issue' && { suppressed: true }),
        ...(action.reason === 'will_fix_later' && { remindAt: now + REMIND_AFTER_MS }),
      };
      return done(withEvent(next, { at: now, type: 'dismissed', message: action.reason }), 'dismissed');
    }
    case 'undismiss': {
      const { dismissedReason: _d, suppressed: _s, acknowledgedAt: _a, remindAt: _r, ...rest } = f;
      return done(withEvent(rest as Finding, { at: now, type: 'undismissed' }), 'undismissed');
    }
    case 'snooze':
      if (f.resolvedAt !== undefined) return { store, applied: false, id: f.id, outcome: 'not_active' };
      return done(withEvent({ ...f, snoozedUntil: action.until }, { at: now, type: 'snoozed' }), 'snoozed');
    case 'suppress': {
      const next = withEvent(
        { ...f, suppressed: true, dismissedReason: 'suppressed', acknowledgedAt: now },
        { at: now, type: 'suppressed' },
      );
      const result = done(next, 'suppressed');
      result.store = {
        ...result.store,
        suppressionRules: [...store.suppressionRules, { resourceId: f.resourceId, category: f.category }],
      };
      return result;
    }
    case 'investigation': {
      const starting = action.status === 'running';
      const next: Finding = {
        ...f,
        investigationStatus: action.status,
        ...(action.outcome !== undefined && { investigationOutcome: action.outcome }),
        ...(starting && { lastInvestigatedAt: now, investigationAttempts: f.investigationAttempts + 1 }),
      };
      return done(
        withEvent(next, {
          at: now,
          type: 'investigation',
          message: `${action.status}${action.outcome ? `: ${action.outcome}` : ''}`,
        }),
        'investigation',
      );
    }
  }
}
