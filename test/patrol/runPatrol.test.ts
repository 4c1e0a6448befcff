import { describe, expect, it } from 'vitest';
import { generateFindingId, type ModelPass, type PassRequest } from 'assistant-safety/patrol';
import { report } from './fixtures.js';
import { cpuReport, mainPass, poolReport, run, storeWith } from './harness.js';

const poolId = generateFindingId('pool-a', 'capacity', 'disk-high');

describe('runPatrol: the evaluation pass', () => {
  it('should give the signals no finding matched to an evaluation pass with that many reports and only the report tool', async () => {
    const seen: PassRequest[] = [];
    const evaluation: ModelPass = async ({ request, tools }) => {
      seen.push(request);
      const call = await tools.call('pulse_storage', { type: 'pools' });
      const read = await tools.getFindings();
      expect([call.ok || call.error.code, read.ok || read.error.code]).toEqual([
        'TOOL_NOT_ADVERTISED',
        'TOOL_NOT_ADVERTISED',
      ]);
      for (const s of request.signals!)
        await tools.reportFinding(
          report({ resourceId: s.resourceId, category: s.category as 'capacity', key: s.type, title: s.summary }),
        );
    };
    const { record } = await run({ passes: { main: mainPass(), evaluation } });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      sessionId: 'patrol-eval',
      allowedTools: ['patrol_report_finding'],
      maxTurns: 5,
      maxFindingReports: 2,
    });
    expect(record.unmatchedBeforeEvaluation.map((s) => s.resourceId)).toEqual(['pool-a', 'node1']);
    expect(record.unmatchedAfterEvaluation).toEqual([]);
    expect(record.evaluationReports).toBe(2);
    expect(record.toolCalls.filter((c) => c.id.startsWith('evaluation/')).map((c) => c.tool)).toEqual([
      'patrol_report_finding',
      'patrol_report_finding',
    ]);
  });

  it('should skip the evaluation pass when the main pass matched every signal', async () => {
    let called = false;
    const { record } = await run({
      passes: { main: mainPass([poolReport, cpuReport]), evaluation: async () => void (called = true) },
    });
    expect(called).toBe(false);
    expect(record.unmatchedBeforeEvaluation).toEqual([]);
    expect(record.phases).not.toContain('evaluationPass');
  });

  it('should refuse reports beyond the budget, in one turn or later, and record what stays unmatched', async () => {
    const answers: string[] = [];
    const evaluation: ModelPass = async ({ tools }) => {
      const titles = ['', 'Disk latency spikes', 'Packet loss on uplink', 'Clock drift detected', 'Swap storm'];
      const extra = (n: number) =>
        report({ resourceId: `other-${n}`, resourceName: `other-${n}`, key: `k${n}`, title: titles[n]! });
      // A batch of three in one turn against a budget of one.
      const batch = await Promise.all([
        tools.reportFinding(extra(1)),
        tools.reportFinding(extra(2)),
        tools.reportFinding(extra(3)),
      ]);
      for (const r of batch) answers.push(r.ok ? 'ok' : r.error.code);
      const later = await tools.reportFinding(extra(4));
      answers.push(later.ok ? 'ok' : later.error.code);
    };
    const { record, store } = await run({ passes: { main: mainPass([cpuReport]), evaluation } });
    expect(answers).toEqual([
      'ok',
      'PATROL_FINDING_REPORT_BUDGET_EXHAUSTED',
      'PATROL_FINDING_REPORT_BUDGET_EXHAUSTED',
      'PATROL_FINDING_REPORT_BUDGET_EXHAUSTED',
    ]);
    expect([record.evaluationReports, record.refusedReports]).toEqual([1, 3]);
    expect(Object.values(store.findings).filter((f) => f.resourceId.startsWith('other-'))).toHaveLength(1);
    expect(record.unmatchedAfterEvaluation.map((s) => s.resourceId)).toEqual(['pool-a']);
  });

  it('should scan only the main pass: a signal-bearing read in a later pass is not detected', async () => {
    const { record } = await run({
      passes: {
        main: mainPass([cpuReport]),
        evaluation: async () => undefined,
      },
    });
    expect(record.signals.map((s) => s.toolCallId)).toEqual(['call-1', 'call-2']);
  });
});

describe('runPatrol: the assessment sweep', () => {
  const seeded = storeWith(poolReport);

  it('should ask the sweep for a verdict on a seeded finding the main pass left alone', async () => {
    const requests: PassRequest[] = [];
    const assessment: ModelPass = async ({ request, tools }) => {
      requests.push(request);
      for (const f of request.pending!)
        await tools.assessFinding({ findingId: f.id, verdict: 'present', evidence: 'still 90%', reason: 'unchanged' });
    };
    const { record } = await run({ store: seeded, passes: { main: mainPass([cpuReport]), assessment } });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      sessionId: 'patrol-assess',
      allowedTools: ['patrol_assess_finding'],
      maxTurns: 3,
    });
    expect(requests[0]!.pending!.map((f) => f.id)).toEqual([poolId]);
    expect(record.errorCount).toBe(0);
    expect(record.phases).toContain('assessmentSweep');
    expect(record.findingIds).toContain(poolId);
  });

  it('should record an error and skip stale reconcile when verdicts are still missing after the sweep', async () => {
    const { record, store } = await run({
      store: seeded,
      passes: { main: mainPass([cpuReport]), assessment: async () => undefined },
    });
    expect(record).toMatchObject({ status: 'error', errorCount: 1, missingAssessments: [poolId] });
    expect(record.errors[0]!.phase).toBe('assessmentSweep');
    expect(record.phases).not.toContain('reconciling');
    expect(store.findings[poolId]!.resolvedAt).toBeUndefined();
  });

  it('should not call the sweep when the main pass gave every verdict', async () => {
    let called = false;
    const main: ModelPass = async (input) => {
      await mainPass([cpuReport])(input);
      await input.tools.assessFinding({
        findingId: poolId,
        verdict: 'uncertain',
        evidence: '-',
        reason: 'cannot tell',
      });
    };
    const { record } = await run({ store: seeded, passes: { main, assessment: async () => void (called = true) } });
    expect(called).toBe(false);
    expect(record.phases).not.toContain('assessmentSweep');
  });
});

describe('runPatrol: full and scoped runs', () => {
  const stale = report({
    key: 'memory-high',
    category: 'performance',
    resourceId: 'node9',
    resourceName: 'node9',
    resourceType: 'node',
    title: 'Memory high on node9',
  });
  const staleId = generateFindingId('node9', 'performance', 'memory-high');
  const seen: ModelPass = async (input) => {
    await mainPass([cpuReport, poolReport])(input);
    for (const f of input.seeded)
      await input.tools.assessFinding({ findingId: f.id, verdict: 'uncertain', evidence: '', reason: '' });
  };

  it('should reconcile on a full run once every seeded finding has a verdict, keeping one judged uncertain', async () => {
    const { record, store } = await run({
      store: storeWith(stale),
      passes: {
        main: mainPass([cpuReport, poolReport]),
        assessment: async ({ request, tools }) => {
          for (const f of request.pending!)
            await tools.assessFinding({ findingId: f.id, verdict: 'uncertain', evidence: '', reason: '' });
        },
      },
    });
    expect(record.phases).toContain('reconciling');
    expect(record.errorCount).toBe(0);
    expect(store.findings[staleId]!.resolvedAt).toBeUndefined();
  });

  it('should resolve a finding judged resolved, and one with a verifier only once the verifier confirms', async () => {
    const backup = report({ key: 'backup-failed', resourceId: 'vm/100' });
    const backupId = generateFindingId('vm/100', 'backup', 'backup-failed');
    const answers: string[] = [];
    const sweep: ModelPass = async ({ request, tools }) => {
      for (const f of request.pending!) {
        const r = await tools.assessFinding({ findingId: f.id, verdict: 'resolved', evidence: 'ok', reason: 'fine' });
        answers.push(`${f.key} ${r.ok ? 'resolved' : r.error.code}`);
      }
    };
    const stillFailing = await run({
      store: storeWith(stale, backup),
      verifier: () => false,
      passes: { main: mainPass([cpuReport, poolReport]), assessment: sweep },
    });
    expect(answers.sort()).toEqual(['backup-failed still_failing', 'memory-high resolved']);
    expect(stillFailing.store.findings[staleId]).toMatchObject({ autoResolved: true, resolveReason: 'fine' });
    expect(stillFailing.store.findings[backupId]!.resolvedAt).toBeUndefined();
    expect(stillFailing.record.status).toBe('error');
    const cleared = await run({
      store: storeWith(backup),
      verifier: () => true,
      passes: { main: mainPass([cpuReport, poolReport]), assessment: sweep },
    });
    expect(cleared.store.findings[backupId]!.resolvedAt).toBeDefined();
    expect(cleared.record.resolvedFindings).toBe(1);
  });

  it('should never reconcile on a scoped run, and keep it to its scope', async () => {
    const outOfScope: string[] = [];
    const main: ModelPass = async (input) => {
      await seen(input);
      const r = await input.tools.reportFinding(report({ resourceId: 'elsewhere', title: 'Out of scope' }));
      if (!r.ok) outOfScope.push(r.error.code);
    };
    const { record, requests } = await run({
      runType: 'scoped',
      trigger: 'alert_fired',
      scope: { resourceIds: ['node1', 'pool-a', 'node9'], resourceTypes: ['node', 'storage'] },
      store: storeWith(stale),
      passes: { main },
    });
    expect(record).toMatchObject({
      type: 'scoped',
      trigger: 'alert_fired',
      scopeResourceIds: ['node1', 'pool-a', 'node9'],
    });
    expect(record.phases).not.toContain('reconciling');
    expect(outOfScope).toEqual(['out_of_scope']);
    expect(requests[0]!.allowedTools).toEqual([
      'pulse_query',
      'pulse_metrics',
      'pulse_storage',
      'patrol_get_findings',
      'patrol_report_finding',
      'patrol_assess_finding',
    ]);
  });
});

describe('runPatrol: errors at each phase', () => {
  const main = mainPass([cpuReport, poolReport]);
  const boom = (phase: string) => () => {
    throw new Error(`${phase} broke`);
  };

  it.each([
    ['gating', { gates: () => 'patrol is disabled' }, ['idle', 'gating', 'recording']],
    ['triage', { triage: boom('triage') }, ['idle', 'gating', 'triage', 'recording']],
    ['mainPass', { passes: { main: boom('main') } }, ['idle', 'gating', 'triage', 'mainPass', 'recording']],
    [
      'detecting',
      { detectors: [boom('detector')] },
      ['idle', 'gating', 'triage', 'mainPass', 'detecting', 'recording'],
    ],
    [
      'evaluationPass',
      { passes: { main: mainPass(), evaluation: boom('evaluation') } },
      ['idle', 'gating', 'triage', 'mainPass', 'detecting', 'evaluationPass', 'recording'],
    ],
    [
      'assessmentSweep',
      { store: storeWith(poolReport), passes: { main: mainPass([cpuReport, poolReport]), assessment: boom('sweep') } },
      ['idle', 'gating', 'triage', 'mainPass', 'detecting', 'checkingAssessments', 'assessmentSweep', 'recording'],
    ],
  ] as const)('should record a failure in %s as an error run, with one record', async (phase, options, phases) => {
    const records: unknown[] = [];
    const { record, steps } = await run({
      passes: { main },
      ...options,
      onRecord: (r: unknown) => void records.push(r),
    } as never);
    expect(records).toHaveLength(1);
    expect(record.status).toBe('error');
    expect(record.errors.map((e) => e.phase)).toEqual([phase]);
    expect(record.phases).toEqual(phases);
    expect(steps.at(-1)!.after).toMatchObject({ state: 'done', records: 1 });
  });

  it('should say "Analysis incomplete" for an error run with nothing active', async () => {
    const { record } = await run({ gates: () => 'provider unavailable', passes: { main } });
    expect(record.findingsSummary).toBe('Analysis incomplete (1 errors)');
    expect(record.errors).toEqual([{ phase: 'gating', message: 'provider unavailable' }]);
  });
});

describe('runPatrol: the record and dispatch', () => {
  const main = mainPass([cpuReport, poolReport]);

  it('should start investigations only after the record is saved, each under an investigation session', async () => {
    const order: string[] = [];
    const { dispatched, investigations } = await run({
      autonomy: 'approval',
      passes: { main },
      onRecord: async () => {
        await Promise.resolve();
        order.push('record');
      },
      investigate: (f, session) => {
        order.push(`investigate ${f.resourceId} (${session.persist().context.config.profile})`);
      },
    });
    await investigations;
    expect(order).toEqual(['record', 'investigate node1 (investigation)', 'investigate pool-a (investigation)']);
    expect(dispatched).toHaveLength(2);
  });

  it('should start none when saving the record fails, and reject', async () => {
    const started: string[] = [];
    await expect(
      run({
        autonomy: 'full',
        passes: { main },
        onRecord: () => {
          throw new Error('disk full');
        },
        investigate: (f) => void started.push(f.id),
      }),
    ).rejects.toThrow('disk full');
    expect(started).toEqual([]);
  });

  it('should dispatch nothing under monitor autonomy, and mark dispatched findings as investigating', async () => {
    const monitor = await run({ passes: { main }, investigate: () => undefined });
    expect(monitor.dispatched).toEqual([]);
    const approval = await run({ autonomy: 'approval', passes: { main }, investigate: () => undefined });
    for (const id of approval.dispatched)
      expect(approval.store.findings[id]).toMatchObject({
        investigationStatus: 'running',
        investigationAttempts: 1,
        loopState: 'investigating',
      });
  });

  it('should summarise the whole store on a full run', async () => {
    const { record } = await run({ passes: { main: mainPass([cpuReport, { ...poolReport, severity: 'critical' }]) } });
    expect(record).toMatchObject({
      status: 'critical',
      findingsSummary: '1 critical and 1 warning',
      newFindings: 2,
      existingFindings: 0,
      toolCallCount: 4,
    });
  });
});

describe('runPatrol: the finding tools', () => {
  it('should refuse invalid reports and say when a report repeats one of this run', async () => {
    const answers: unknown[] = [];
    const main: ModelPass = async ({ tools }) => {
      const watch = await tools.reportFinding(report({ severity: 'watch' }));
      const missing = await tools.reportFinding({ ...report(), title: '' });
      await tools.reportFinding(report());
      const again = await tools.reportFinding(report({ title: 'Nightly backup of db failed again' }));
      answers.push(watch.ok ? 'ok' : watch.error.code, missing.ok ? 'ok' : missing.error.code, again.ok && again.value);
    };
    await run({ passes: { main } });
    expect(answers).toEqual([
      'invalid_report',
      'invalid_report',
      { findingId: '1111a38b1524c70d', isNew: true, applied: false, reason: 'finding_reported_this_run' },
    ]);
  });

  it('should refuse a report whose title or evidence is too long to keep, naming the field, and keep none of it', async () => {
    // Before, a 5 MB title was stored in the finding and shown for ever.
    const answers: unknown[] = [];
    const main: ModelPass = async ({ tools }) => {
      const long = await tools.reportFinding(report({ title: 'x'.repeat(5 * 1024 * 1024) }));
      const evidence = await tools.reportFinding({ ...report(), evidence: 'e'.repeat(16_385) });
      const fits = await tools.reportFinding({ ...report(), evidence: 'e'.repeat(16_384) });
      for (const a of [long, evidence]) answers.push(a.ok ? 'ok' : `${a.error.code} ${a.error.message.split(':')[0]}`);
      answers.push(fits.ok);
    };
    const { store } = await run({ passes: { main } });
    expect(answers).toEqual(['invalid_report title', 'invalid_report evidence', true]);
    expect(Object.values(store.findings).map((f) => f.evidence?.length)).toEqual([16_384]);
  });

  it('should refuse a verdict on an unknown finding, on one created this run, and a second verdict', async () => {
    const answers: unknown[] = [];
    const id = generateFindingId('pool-a', 'capacity', 'disk-high');
    const main: ModelPass = async ({ tools }) => {
      const unknown = await tools.assessFinding({ findingId: 'nope', verdict: 'present', evidence: '', reason: '' });
      answers.push(unknown.ok ? 'ok' : unknown.error.message);
      const fresh = await tools.reportFinding(cpuReport);
      const own = await tools.assessFinding({
        findingId: fresh.ok ? fresh.value.findingId : '',
        verdict: 'present',
        evidence: '',
        reason: '',
      });
      answers.push(own.ok && own.value);
      await tools.assessFinding({ findingId: id, verdict: 'uncertain', evidence: '', reason: '' });
      const second = await tools.assessFinding({ findingId: id, verdict: 'present', evidence: '', reason: '' });
      answers.push(second.ok ? 'ok' : second.error.code);
    };
    await run({ store: storeWith(poolReport), passes: { main } });
    expect(answers).toEqual([
      `no active finding "nope" in scope (active: ${id})`,
      { applied: false, reason: 'new_finding_reported_this_run' },
      'already_assessed',
    ]);
  });

  it('should give each pass a fresh detection session, moved to READING by a findings read', async () => {
    const sessions: string[] = [];
    const main: ModelPass = async ({ tools, session }) => {
      sessions.push(`${session.persist().context.config.profile} ${session.state}`);
      await tools.reportFinding(cpuReport);
      sessions.push(`after report ${session.state} wrote=${session.wroteThisEpisode}`);
      await tools.getFindings();
      sessions.push(`after read ${session.state}`);
      await tools.call('pulse_storage', { type: 'pools' });
    };
    const evaluation: ModelPass = async ({ session }) =>
      void sessions.push(`eval ${session.persist().context.config.profile} ${session.state}`);
    await run({ passes: { main, evaluation } });
    expect(sessions).toEqual([
      'detection RESOLVING',
      'after report RESOLVING wrote=false',
      'after read READING',
      'eval detection RESOLVING',
    ]);
  });
});
