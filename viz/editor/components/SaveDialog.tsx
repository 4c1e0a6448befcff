import { formatPath } from 'assistant-safety';
import { useState } from 'react';
import type { SaveFlow } from '../hooks/useSaveFlow.js';
import { DiffView } from './DiffView.js';

/**
 * The diff against the file on disk, shown before any save; a machine that
 * breaks invariants needs the box ticked; a conflict or a refusal says why
 * and saves nothing.
 */
export function SaveDialog({
  name,
  flow,
  violated,
  onReload,
}: {
  name: string;
  flow: SaveFlow;
  /** Ids of the invariants the machine breaks (empty: none); undefined while the check runs. */
  violated: string[] | undefined;
  onReload(): void;
}) {
  const [confirmed, setConfirmed] = useState(false);
  if (flow.phase === 'closed') return null;
  const p = flow.preview;
  const breaks = (violated?.length ?? 0) > 0;
  const canWrite =
    flow.phase === 'review' && p !== undefined && !p.conflict && violated !== undefined && (!breaks || confirmed);
  return (
    <div className="edit-modal" role="dialog" aria-label="save the machine" data-testid="save-dialog">
      <div className="edit-modal-body">
        <h2>Save machines/{name}.json</h2>
        {flow.phase === 'previewing' && <p className="muted">comparing with the file on disk…</p>}
        {p && (
          <>
            <DiffView title={`machines/${name}.json`} before={p.currentText ?? ''} after={p.proposedText} />
            {p.proposedLayoutText !== null && (
              <DiffView
                title={`machines/${name}.layout.json`}
                before={p.currentLayoutText ?? ''}
                after={p.proposedLayoutText}
              />
            )}
          </>
        )}
        {p?.conflict && (
          <p className="error" data-testid="save-error">
            machines/{name}.json changed on disk since the editor loaded it: saving would overwrite that change. Reload
            it (your edits here are lost) or copy your changes first.
          </p>
        )}
        {violated === undefined && flow.phase === 'review' && (
          <p className="muted">waiting for the invariant check to finish…</p>
        )}
        {breaks && flow.phase === 'review' && !p?.conflict && (
          <label className="edit-confirm">
            <input
              type="checkbox"
              data-testid="confirm-violations"
              checked={confirmed}
              onChange={(e) => setConfirmed(e.target.checked)}
            />
            This machine breaks {violated!.join(', ')}. Save it anyway.
          </label>
        )}
        {flow.phase === 'refused' && flow.error && (
          <div className="error" data-testid="save-error">
            {flow.error.code === 'CONFLICT' ? 'Conflict: ' : 'Refused: '}
            {flow.error.error}
            {flow.error.issues && (
              <ul>
                {flow.error.issues.map((i, k) => (
                  <li key={k}>
                    <code>{formatPath(i.path) || '(root)'}</code>: {i.message}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        {flow.phase === 'saved' && (
          <p className="edit-good" data-testid="save-done">
            Saved machines/{name}.json (version {flow.savedVersion}). Run <code>npx assistant-safety check</code> and{' '}
            <code>npm test</code>: they read the file as it is now.
          </p>
        )}
        <div className="edit-buttons">
          {(flow.phase === 'review' || flow.phase === 'saving') && (
            <button type="button" data-testid="confirm-save" disabled={!canWrite} onClick={flow.save}>
              {flow.phase === 'saving' ? 'writing…' : 'write the file'}
            </button>
          )}
          {(p?.conflict || flow.error?.code === 'CONFLICT') && (
            <button type="button" data-action="reload" onClick={onReload}>
              reload from disk
            </button>
          )}
          <button type="button" data-action="close-save" onClick={flow.close}>
            {flow.phase === 'saved' ? 'close' : 'cancel'}
          </button>
        </div>
      </div>
    </div>
  );
}
