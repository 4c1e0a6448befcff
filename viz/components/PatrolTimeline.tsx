import type { PatrolRecordedStep } from 'assistant-safety/patrol';

export interface PatrolTimelineProps {
  steps: readonly PatrolRecordedStep[];
  cursor: number;
  onSelect: (index: number) => void;
  /** Steps whose replay on the machine shown ends elsewhere than recorded. */
  diverged: ReadonlySet<number>;
}

const PASS_LABELS = { main: 'main pass', evaluation: 'evaluation', assessment: 'assessment' } as const;

/** What a step was about, in words: the signals found, the finding filed or dispatched, the counts. */
function patrolStepText(step: PatrolRecordedStep): string {
  const e = step.event;
  switch (e.type) {
    case 'START':
      return `${e.runType} run (${e.trigger})`;
    case 'TRIAGED':
      return `${e.flags} triage flag(s)`;
    case 'SIGNALS_DETECTED': {
      const missed = step.unmatched?.map((s) => `${s.type} on ${s.resourceName || s.resourceId}`) ?? [];
      return `${e.signals} signal(s), ${e.unmatched} unmatched${missed.length ? `: ${missed.join(', ')}` : ''}`;
    }
    case 'REPORT_REQUESTED':
      return step.finding ? `filed: ${step.finding.title} (${step.finding.severity})` : 'report';
    case 'DISPATCH':
      return step.finding ? `investigate: ${step.finding.title}` : `investigate ${e.findingId}`;
    case 'ASSESSMENTS_CHECKED':
      return `${e.missing} finding(s) without a verdict`;
    case 'RECONCILED':
      return `${e.resolved} stale finding(s) resolved`;
    case 'PHASE_FAILED':
      return `failed: ${e.message}`;
    default:
      return '';
  }
}

/** The steps of a recorded Patrol run: the pass each ran in, the event, what it was about, the state after. */
export function PatrolTimeline({ steps, cursor, onSelect, diverged }: PatrolTimelineProps) {
  return (
    <div className="timeline patrol-timeline" data-testid="patrol-timeline">
      <div className="patrol-row patrol-header">
        <span>#</span>
        <span>pass</span>
        <span>event</span>
        <span>what</span>
        <span>state after</span>
      </div>
      <div className="timeline-viewport">
        {steps.map((step, i) => (
          <div
            key={i}
            role="button"
            tabIndex={0}
            data-testid="patrol-step"
            data-event={step.event.type}
            className={`patrol-row${i === cursor ? ' current' : ''}${diverged.has(i) ? ' diverged' : ''}${step.unmatched?.length ? ' missed' : ''}`}
            onClick={() => onSelect(i)}
            onKeyDown={(e) => e.key === 'Enter' && onSelect(i)}
          >
            <span>{i + 1}</span>
            <span className="muted">{step.pass ? PASS_LABELS[step.pass] : ''}</span>
            <span>{step.event.type}</span>
            <span className="patrol-what" title={patrolStepText(step)}>
              {patrolStepText(step)}
            </span>
            <span>
              {step.after.state}
              {diverged.has(i) && <span className="warning"> ≠ replay</span>}
            </span>
          </div>
        ))}
      </div>
    </div>
  );
}
