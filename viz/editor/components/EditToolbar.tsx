/** Undo, redo, and the way to a save, with what the editor is based on. */
export function EditToolbar({
  canUndo,
  canRedo,
  dirty,
  baseVersion,
  saveDisabled,
  onUndo,
  onRedo,
  onSave,
}: {
  canUndo: boolean;
  canRedo: boolean;
  dirty: boolean;
  baseVersion: string;
  /** Why saving is not possible now (a malformed machine), if so. */
  saveDisabled: string | undefined;
  onUndo(): void;
  onRedo(): void;
  onSave(): void;
}) {
  return (
    <div className="edit-toolbar">
      <button type="button" data-testid="undo" disabled={!canUndo} onClick={onUndo} title="undo (Ctrl+Z)">
        ↶ undo
      </button>
      <button type="button" data-testid="redo" disabled={!canRedo} onClick={onRedo} title="redo (Ctrl+Shift+Z)">
        ↷ redo
      </button>
      <button
        type="button"
        data-testid="save-machine"
        className="edit-primary"
        disabled={saveDisabled !== undefined}
        title={saveDisabled ?? 'show the diff against the file on disk, then save'}
        onClick={onSave}
      >
        review &amp; save…
      </button>
      <span className="muted edit-version" data-testid="edit-dirty">
        {dirty ? '● unsaved edits' : 'no unsaved edits'} · file version {baseVersion.slice(0, 8)}
      </span>
    </div>
  );
}
