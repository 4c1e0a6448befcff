import { useCallback, useState } from 'react';
import type { EditorDocument } from 'assistant-safety/editor';
import type { MachineApiError, SavePreviewResponse } from 'assistant-safety/editor';
import { previewSave, saveMachine } from '../machineRequests.js';

/** Where a save is: nothing, the diff being fetched, the diff shown, writing, done, or refused. */
type SavePhase = 'closed' | 'previewing' | 'review' | 'saving' | 'saved' | 'refused';

export interface SaveFlow {
  phase: SavePhase;
  preview?: SavePreviewResponse;
  error?: MachineApiError;
  /** After a save: the new version. */
  savedVersion?: string;
  /** Fetches what a save would write and shows the diff. */
  review(): void;
  /** Writes the file (after the diff was shown). */
  save(): void;
  close(): void;
}

/**
 * A save in two steps: the diff against the file on disk first, then the
 * write at the version the editor is based on. `onSaved` gets the new file.
 */
export function useSaveFlow(
  name: string,
  document: EditorDocument,
  baseVersion: string,
  baseLayoutVersion: string,
  onSaved: (saved: { text: string; version: string; layoutVersion: string }) => void,
): SaveFlow {
  const [state, setState] = useState<Omit<SaveFlow, 'review' | 'save' | 'close'>>({ phase: 'closed' });
  // No layout file is written for a machine whose states were never moved.
  const body = {
    definition: document.definition,
    ...(Object.keys(document.layout.nodes).length > 0 && { layout: document.layout, baseLayoutVersion }),
    baseVersion,
  };
  const review = useCallback(() => {
    setState({ phase: 'previewing' });
    previewSave(name, body).then(
      (a) => setState(a.ok ? { phase: 'review', preview: a.value } : { phase: 'refused', error: a.error }),
      (e: unknown) => setState({ phase: 'refused', error: { code: 'BAD_REQUEST', error: (e as Error).message } }),
    );
  }, [name, document, baseVersion, baseLayoutVersion]);
  const save = useCallback(() => {
    setState((s) => ({ ...s, phase: 'saving' }));
    saveMachine(name, body).then(
      (a) => {
        if (a.ok) {
          onSaved(a.value);
          setState({ phase: 'saved', savedVersion: a.value.version });
        } else setState((s) => ({ ...s, phase: 'refused', error: a.error }));
      },
      (e: unknown) => setState({ phase: 'refused', error: { code: 'BAD_REQUEST', error: (e as Error).message } }),
    );
  }, [name, document, baseVersion, baseLayoutVersion, onSaved]);
  const close = useCallback(() => setState({ phase: 'closed' }), []);
  return { ...state, review, save, close };
}
