import { describe, expect, it } from 'vitest';
import { editorReducer } from '../../viz/editor/model/editorReducer.js';
import { dropEditorSession, keepEditorSession, resumeEditorSession } from '../../viz/editor/model/editorSessions.js';
import { shippedEditor } from './fixtures.js';

describe('kept editor sessions', () => {
  it('should resume the edits of a machine only while the file is still at the version they are based on', () => {
    const edited = editorReducer(shippedEditor(), {
      type: 'edit',
      edit: { type: 'setStateDescription', state: 'READING', description: 'Kept.' },
    });
    keepEditorSession(edited);
    expect(resumeEditorSession('assistant-safety', 'v1')).toBe(edited);
    expect(resumeEditorSession('assistant-safety', 'changed-on-disk')).toBeUndefined();
    expect(resumeEditorSession('another', 'v1')).toBeUndefined();
    dropEditorSession('assistant-safety');
    expect(resumeEditorSession('assistant-safety', 'v1')).toBeUndefined();
  });
});
