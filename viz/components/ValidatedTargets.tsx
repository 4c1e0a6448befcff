import type { RecordingEntry, SafetyContext, TargetProvenance } from 'assistant-safety';

interface ValidatedTargetsProps {
  entry: RecordingEntry;
  /** The replayed session's context after the entry; undefined until the replay reaches it. */
  context: SafetyContext | undefined;
}

/** The blocks that say a call's targets were not validated. */
const TARGET_BLOCKS = new Set(['NO_VALIDATED_TARGET', 'TARGET_NOT_VALIDATED', 'EGRESS_NOT_VALIDATED']);

/**
 * Where a validated target came from, in plain words.
 *
 * @example
 * sourceOf({ target: 'vm:7', source: 'discovery', tool: 'list_vms', field: 'vms.id' }); // 'result field vms.id of list_vms'
 */
function sourceOf(p: TargetProvenance | undefined): string {
  if (!p) return 'source not recorded';
  switch (p.source) {
    case 'user':
      return p.words !== undefined ? `the user's words: "${p.words}"` : 'the user';
    case 'tool':
      return p.tool !== undefined ? `tool ${p.tool} (named in its call)` : 'a tool';
    case 'discovery':
      return p.field !== undefined
        ? `result field ${p.field} of ${p.tool ?? 'a tool'}`
        : `a result of ${p.tool ?? 'a tool'}`;
    case 'human':
      return p.by !== undefined ? `a person: ${p.by}` : 'a person';
  }
}

/** The call's targets, when the entry is a call that carries them. */
function callTargetsOf(entry: RecordingEntry): readonly string[] {
  const call = entry.call;
  return 'targets' in call && call.targets ? call.targets : [];
}

/**
 * Target binding at the step shown: every validated target with where it came from (the user's
 * words, a result field, a tool's call, a person), and for a call blocked for its targets, those that
 * had no source. Shown for a session with binding, or one that holds validated targets.
 */
export function ValidatedTargets({ entry, context }: ValidatedTargetsProps) {
  const blockedForTargets = entry.decision === 'blocked' && TARGET_BLOCKS.has(entry.reasonCode ?? '');
  if (!context) return blockedForTargets ? <p className="muted">targets after the replay reaches this step…</p> : null;
  if (context.config.targets !== 'bind' && context.validatedTargets.length === 0) return null;
  const provenance = new Map(context.provenance.map((p) => [p.target, p]));
  const validated = new Set(context.validatedTargets);
  const unsourced = callTargetsOf(entry).filter((t) => !validated.has(t));
  return (
    <section className="validated-targets" data-testid="validated-targets">
      <h3>Validated targets ({context.validatedTargets.length})</h3>
      {context.validatedTargets.length === 0 ? (
        <p className="muted">none</p>
      ) : (
        <ul className="recoveries targets">
          {context.validatedTargets.map((t) => (
            <li key={t} data-testid="validated-target" data-target={t}>
              <code>{t}</code> <span className="muted target-source">from {sourceOf(provenance.get(t))}</span>
            </li>
          ))}
        </ul>
      )}
      {blockedForTargets && (
        <p className="blocked-note" data-testid="unsourced-targets">
          {unsourced.length > 0 ? (
            <>
              No source for:{' '}
              {unsourced.map((t, i) => (
                <span key={t}>
                  {i > 0 && ', '}
                  <code>{t}</code>
                </span>
              ))}
            </>
          ) : (
            'The call named no target: nothing could validate it.'
          )}
        </p>
      )}
    </section>
  );
}
