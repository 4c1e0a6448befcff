import { useCallback, useEffect, useMemo, useReducer } from 'react';
import { emptyLayout } from 'assistant-safety/editor';
import type { MachineEdit } from 'assistant-safety/editor';
import type { MachineFileResponse } from 'assistant-safety/editor';
import type { NodePosition } from 'assistant-safety/editor';
import type { MachineDefinition } from 'assistant-safety';
import { machineKindOf, type AppMachineKind } from '../model/machineKindOf.js';
import { ANY_STATE, buildGraphModel } from '../model/graphModel.js';
import { EditableDiagram } from './components/EditableDiagram.js';
import { EditToolbar } from './components/EditToolbar.js';
import { ExportButtons } from './components/ExportButtons.js';
import { InvariantReport } from './components/InvariantReport.js';
import { ReplayImpact } from './components/ReplayImpact.js';
import { SaveDialog } from './components/SaveDialog.js';
import { StateInspector } from './components/StateInspector.js';
import { TransitionInspector } from './components/TransitionInspector.js';
import { ValidationIssues } from './components/ValidationIssues.js';
import { useEditorLayout } from './hooks/useEditorLayout.js';
import { useDiagramPaneBox } from '../hooks/useDiagramFit.js';
import { useMachineCheck } from './hooks/useMachineCheck.js';
import { useMachineFile } from './hooks/useMachineFile.js';
import { useReplayImpact } from './hooks/useReplayImpact.js';
import { useSaveFlow } from './hooks/useSaveFlow.js';
import { canRedo, canUndo, createEditorState, editorReducer, isDirty } from './model/editorReducer.js';
import { dropEditorSession, keepEditorSession, resumeEditorSession } from './model/editorSessions.js';
import { transitionRefOf } from './model/transitionRefOf.js';
import { eventTypesOf } from './model/eventTypesOf.js';
import { validateMachineOfKind } from './model/validateMachineOfKind.js';
import './editor.css';

/**
 * The edit mode: one machine of `machines/` loaded from the server, edited
 * as data with undo/redo, validated and checked against every invariant
 * after each edit, and saved back through the server after a diff.
 * Renders the app's three areas (left, center, right).
 */
export function MachineEditor({
  file,
  fromServer,
  onSaved,
  onShownState,
}: {
  file: string | undefined;
  fromServer: boolean;
  /** Called after each save, e.g. to reload the machines the other modes draw. */
  onSaved?: () => void;
  /** Told the state the diagram shows: a played counterexample step's, else none. */
  onShownState?: (state: string | undefined) => void;
}) {
  const name = file?.replace(/\.json$/, '');
  const loaded = useMachineFile(fromServer ? name : undefined);
  if (!fromServer || !name) {
    return (
      <main className="center edit-empty">
        <p className="muted">
          Editing needs the server, which reads and writes <code>machines/</code>: run{' '}
          <code>npx assistant-safety serve</code> and open the URL it prints.
        </p>
      </main>
    );
  }
  if (loaded.error) {
    return (
      <main className="center edit-empty">
        <p className="error">
          Cannot load machines/{name}.json: {loaded.error}
        </p>
      </main>
    );
  }
  if (!loaded.file) {
    return (
      <main className="center edit-empty">
        <p className="muted">Loading machines/{name}.json…</p>
      </main>
    );
  }
  if (loaded.file.error !== undefined) {
    return (
      <main className="center edit-empty">
        <p className="error">
          machines/{name}.json is {loaded.file.error}; it cannot be edited here: fix it by hand first.
        </p>
      </main>
    );
  }
  const kind = machineKindOf(`${name}.json`);
  const parsed = validateMachineOfKind(loaded.file.json, kind);
  if (!parsed.success) {
    return (
      <main className="center edit-empty">
        <p className="error">machines/{name}.json does not load, so it cannot be edited here; fix it by hand first.</p>
        <ValidationIssues issues={parsed.issues} />
      </main>
    );
  }
  return (
    <EditorSession
      key={`${name}:${loaded.loads}`}
      name={name}
      kind={kind}
      file={loaded.file}
      // The JSON as loaded, not as parsed: zod puts keys in the schema's order, and every save would show that.
      definition={loaded.file.json as MachineDefinition}
      onReload={loaded.reload}
      {...(onSaved && { onSaved })}
      {...(onShownState && { onShownState })}
    />
  );
}

function EditorSession({
  name,
  kind,
  file,
  definition,
  onReload,
  onSaved: onFileSaved,
  onShownState,
}: {
  name: string;
  kind: AppMachineKind;
  file: MachineFileResponse;
  definition: MachineDefinition;
  onReload(): void;
  onSaved?: () => void;
  onShownState?: (state: string | undefined) => void;
}) {
  const [state, dispatch] = useReducer(
    editorReducer,
    undefined,
    () =>
      resumeEditorSession(name, file.version) ??
      createEditorState(name, {
        text: file.text,
        version: file.version,
        layoutVersion: file.layoutVersion,
        document: { definition, layout: file.layout ?? emptyLayout() },
      }),
  );
  useEffect(() => keepEditorSession(state), [state]);
  const doc = state.history.present;
  const model = useMemo(() => buildGraphModel(doc.definition), [doc.definition]);
  const [diagramPane, paneBox] = useDiagramPaneBox();
  const { auto, error: layoutError } = useEditorLayout(model, doc.layout.nodes, paneBox);
  const validation = useMemo(() => validateMachineOfKind(doc.definition, kind), [doc.definition, kind]);
  const { check, checking, error: checkError } = useMachineCheck(doc.definition, kind);
  const report = check?.ok ? check.report : undefined;
  // Recorded sessions replay on safety machines only (a Patrol run's recording is replayed in the Recordings view).
  const replay = useReplayImpact(validation.success && kind === 'safety' ? validation.data : undefined);
  const onSaved = useCallback(
    (saved: { text: string; version: string; layoutVersion: string }) => {
      dispatch({ type: 'saved', ...saved });
      onFileSaved?.();
    },
    [onFileSaved],
  );
  const save = useSaveFlow(name, doc, state.base.version, state.base.layoutVersion, onSaved);
  const edit = useCallback((e: MachineEdit) => dispatch({ type: 'edit', edit: e }), []);
  const move = useCallback(
    (s: string, position: NodePosition) => dispatch({ type: 'edit', edit: { type: 'moveNode', state: s, position } }),
    [],
  );

  // Leaving the page with unsaved edits asks first.
  const dirty = isDirty(state);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT')) return;
      if (!(e.ctrlKey || e.metaKey)) return;
      const key = e.key.toLowerCase();
      if (key === 'z' && !e.shiftKey) dispatch({ type: 'undo' });
      else if ((key === 'z' && e.shiftKey) || key === 'y') dispatch({ type: 'redo' });
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const violation = state.playback && report?.violations.find((v) => v.id === state.playback!.invariant);
  const step = violation ? violation.steps[state.playback!.step] : undefined;
  useEffect(() => {
    onShownState?.(step?.to);
    return () => onShownState?.(undefined);
  }, [step?.to, onShownState]);
  const at = state.selection?.kind === 'transition' ? transitionRefOf(state.selection.id) : undefined;
  const selected =
    at && (at.source === null ? doc.definition.on : doc.definition.states[at.source]?.on)?.[at.event]?.[at.index];
  const selectedState = state.selection?.kind === 'state' ? state.selection.state : undefined;

  return (
    <>
      <aside className="left edit-left" data-testid="editor">
        <h2>Editing machines/{name}.json</h2>
        <EditToolbar
          canUndo={canUndo(state.history)}
          canRedo={canRedo(state.history)}
          dirty={dirty}
          baseVersion={state.base.version}
          saveDisabled={validation.success ? undefined : 'the machine is malformed: fix the issues listed first'}
          onUndo={() => dispatch({ type: 'undo' })}
          onRedo={() => dispatch({ type: 'redo' })}
          onSave={save.review}
        />
        {state.error && <p className="error">{state.error}</p>}
        {!validation.success && <ValidationIssues issues={validation.issues} />}
        {validation.success && (
          <InvariantReport
            title={kind === 'patrol' ? 'Patrol invariants' : 'Safety invariants'}
            start={kind === 'patrol' ? 'an idle run' : 'a new session'}
            report={report}
            checking={checking}
            error={checkError}
            playing={state.playback}
            onPlay={(invariant, s) => dispatch({ type: 'play', invariant, step: s })}
            onStop={() => dispatch({ type: 'stopPlayback' })}
          />
        )}
        {validation.success && kind === 'safety' && (
          <ReplayImpact
            impacts={replay.impacts}
            skipped={replay.skipped}
            running={replay.running}
            error={replay.error}
            onRun={replay.run}
          />
        )}
        {validation.success && <ExportButtons name={name} definition={validation.data} />}
      </aside>
      <main className="center">
        <div className="diagram-wrap" ref={diagramPane}>
          {layoutError && <p className="error">{layoutError}</p>}
          {auto ? (
            <EditableDiagram
              model={model}
              auto={auto}
              positions={doc.layout.nodes}
              selection={state.selection}
              step={step}
              onSelect={(selection) => dispatch({ type: 'select', selection })}
              onMove={move}
            />
          ) : (
            !layoutError && <p className="muted">Laying out…</p>
          )}
        </div>
        <div className="track-bar edit-hintbar">
          {step ? (
            <span data-testid="playing-step">
              {violation!.id} step {state.playback!.step + 1}/{violation!.steps.length}: {step.text}
            </span>
          ) : (
            <span className="muted">
              Click a state or an arrow to edit it; drag a state to move it (saved in machines/{name}
              .layout.json).
            </span>
          )}
        </div>
      </main>
      <aside className="context-panel edit-right">
        {state.selection && (
          <button
            type="button"
            className="edit-back"
            data-action="deselect"
            onClick={() => dispatch({ type: 'select', selection: null })}
          >
            ← all states
          </button>
        )}
        {at && selected ? (
          <TransitionInspector
            definition={doc.definition}
            at={at}
            transition={selected}
            eventTypes={eventTypesOf(kind)}
            onEdit={edit}
          />
        ) : selectedState && (selectedState === ANY_STATE || doc.definition.states[selectedState]) ? (
          <StateInspector
            definition={doc.definition}
            state={selectedState}
            eventTypes={eventTypesOf(kind)}
            onEdit={edit}
            onSelect={(selection) => dispatch({ type: 'select', selection })}
          />
        ) : (
          <section className="edit-inspector">
            <h2>Nothing selected</h2>
            <p className="muted">Pick a state to edit its description and transitions:</p>
            <ul className="edit-transition-list">
              {[...(doc.definition.on ? [ANY_STATE] : []), ...Object.keys(doc.definition.states)].map((s) => (
                <li key={s}>
                  <button
                    type="button"
                    data-edit-state-pick={s}
                    onClick={() => dispatch({ type: 'select', selection: { kind: 'state', state: s } })}
                  >
                    {s === ANY_STATE ? 'any state (root transitions)' : s}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )}
      </aside>
      <SaveDialog
        key={save.phase === 'closed' ? 'closed' : 'open'}
        name={name}
        flow={save}
        violated={validation.success ? report?.violations.map((v) => v.id) : undefined}
        onReload={() => {
          dropEditorSession(name);
          onReload();
        }}
      />
    </>
  );
}
