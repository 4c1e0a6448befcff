import type { PatrolRecordedStep, PatrolRecording } from 'assistant-safety/patrol';

export interface PatrolRunPanelProps {
  recording: PatrolRecording;
  /** The step shown: findings filed up to it are listed. */
  cursor: number;
}

/**
 * The run beside its timeline: the signals detection found (the ones no
 * finding matched marked, and whether the evaluation pass caught them), the
 * findings filed so far with the pass that filed them, and the run record.
 */
export function PatrolRunPanel({ recording, cursor }: PatrolRunPanelProps) {
  const { record, steps } = recording;
  const missed = new Set(record.unmatchedBeforeEvaluation.map((s) => `${s.type}:${s.resourceId}`));
  const stillMissed = new Set(record.unmatchedAfterEvaluation.map((s) => `${s.type}:${s.resourceId}`));
  const filed = steps
    .slice(0, cursor + 1)
    .filter((s): s is PatrolRecordedStep & { finding: NonNullable<PatrolRecordedStep['finding']> } =>
      Boolean(s.event.type === 'REPORT_REQUESTED' && s.finding),
    );
  return (
    <aside className="context-panel patrol-panel" data-testid="patrol-panel">
      <h2>Patrol run {record.id}</h2>
      <p className="muted">
        {record.type} run · {record.status} · {record.findingsSummary || 'no findings'}
      </p>
      <h3>Signals ({record.signals.length})</h3>
      <ul className="patrol-list" data-testid="patrol-signals">
        {record.signals.map((s) => {
          const key = `${s.type}:${s.resourceId}`;
          const note = !missed.has(key)
            ? 'matched by the main pass'
            : stillMissed.has(key)
              ? 'missed: still unmatched'
              : 'missed by the main pass, caught by the evaluation pass';
          return (
            <li key={key} className={missed.has(key) ? 'missed' : ''} data-signal={s.type}>
              <strong>{s.type}</strong> on {s.resourceName || s.resourceId} <span className="muted">({note})</span>
            </li>
          );
        })}
      </ul>
      <h3>Findings filed ({filed.length})</h3>
      <ul className="patrol-list" data-testid="patrol-findings">
        {filed.map((s) => (
          <li key={s.index}>
            <span className={`severity severity-${s.finding.severity}`}>{s.finding.severity}</span> {s.finding.title}{' '}
            <span className="muted">({s.pass ?? 'run'} pass)</span>
          </li>
        ))}
      </ul>
      <h3>Record</h3>
      <p className="muted">
        {record.newFindings} new, {record.existingFindings} existing, {record.resolvedFindings} resolved;{' '}
        {record.evaluationReports} evaluation report(s); {record.errorCount} error(s); path {record.phases.join(' → ')}
      </p>
    </aside>
  );
}
