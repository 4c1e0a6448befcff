import { useMachine } from '@xstate/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { ContextPanel } from './components/ContextPanel.js';
import type { DiagramMoment } from './components/Diagram.js';
import { DiagramViewport } from './components/DiagramViewport.js';
import { useDiagramPaneBox } from './hooks/useDiagramFit.js';
import { LiveSessionList } from './components/LiveSessionList.js';
import { PatrolRunPanel } from './components/PatrolRunPanel.js';
import { PatrolTimeline } from './components/PatrolTimeline.js';
import { PlaybackControls } from './components/PlaybackControls.js';
import { PlaygroundControls } from './components/PlaygroundControls.js';
import { RecordingSource } from './components/RecordingSource.js';
import { Timeline } from './components/Timeline.js';
import { useAnalysis } from './hooks/useAnalysis.js';
import { useKeyboard } from './hooks/useKeyboard.js';
import { useLayout } from './hooks/useLayout.js';
import { useLiveSession } from './hooks/useLiveSession.js';
import { useMachines, type SessionMachine } from './hooks/useMachines.js';
import { usePlayback } from './hooks/usePlayback.js';
import { usePatrolRecording } from './hooks/usePatrolRecording.js';
import { usePlayground } from './hooks/usePlayground.js';
import { useRecording } from './hooks/useRecording.js';
import { useTrack } from './hooks/useTrack.js';
import { MachineEditor } from './editor/MachineEditor.js';
import { InsightsMode } from './insights/InsightsMode.js';
import { useOpenAtStep } from './insights/useOpenAtStep.js';
import { APP_MODES, appModeMachine, type AppMode } from './machines/appModeMachine.js';
import { patrolTransitionTaken } from './model/patrolTransitionTaken.js';
import { recordingKindOf } from './model/recordingKindOf.js';
import { createTrackStore } from './model/Track.js';

export interface AppProps {
  /** Talk to the server the page came from (machines, recordings, live hub). */
  fromServer: boolean;
  initialMode?: AppMode;
  /** Open this recording of the server's folder at start (`?recording=`). */
  initialRecording?: string;
  /** Follow this live session at start (`?session=`); else the newest one. */
  initialSession?: string;
}

const MODE_LABELS: Record<AppMode, string> = {
  live: 'Live',
  recordings: 'Recordings',
  playground: 'Playground',
  edit: 'Edit',
  insights: 'Insights',
};

const NO_KEYS: Record<string, () => void> = {};

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function App({ fromServer, initialMode = 'recordings', initialRecording, initialSession }: AppProps) {
  const [modeSnapshot, sendMode] = useMachine(appModeMachine, {
    snapshot: appModeMachine.resolveState({ value: initialMode, context: undefined as never }),
  });
  const mode = modeSnapshot.value as AppMode;
  // Bumped by each save in the editor: the other modes then draw and replay the machine as saved.
  const [machinesSaved, setMachinesSaved] = useState(0);
  const machines = useMachines(fromServer, machinesSaved);
  const [machineIndex, setMachineIndex] = useState(0);
  // The state the editor's diagram shows (a counterexample step being played), for the header.
  const [editShown, setEditShown] = useState<string | undefined>(undefined);
  const machine = machines[machineIndex] ?? machines[0];
  const graph = machine?.ok ? machine.graph : undefined;
  // A Patrol run machine is shown with Patrol recordings; live sessions and the playground run safety machines.
  const patrolMachine = machine?.ok && machine.kind === 'patrol' ? machine : undefined;
  const safetyMachine = patrolMachine ? undefined : (machine as SessionMachine | undefined);
  const [diagramPane, paneBox] = useDiagramPaneBox();
  const { layout, error: layoutError } = useLayout(graph, paneBox);

  const store = useMemo(createTrackStore, []);
  const { track, version } = useTrack(store);
  const recording = useRecording(store, fromServer);
  const live = useLiveSession(fromServer && mode === 'live', store);
  const playground = usePlayground(mode === 'playground', safetyMachine, store);
  const playback = usePlayback(track, version);
  const { analyzer, done } = useAnalysis(track, version, safetyMachine);
  const patrol = usePatrolRecording(patrolMachine?.machine);
  const [patrolCursor, setPatrolCursor] = useState(0);
  const patrolSteps = patrol.run?.recording.steps ?? [];
  useEffect(() => setPatrolCursor(0), [patrol.run?.recording]);
  const recordingsOf = (kind: 'safety' | 'patrol') => recording.list?.filter((r) => recordingKindOf(r.name) === kind);

  // A mode switch shows that mode's own track.
  useEffect(() => {
    if (mode !== 'playground' && track?.source === 'playground') store.replace(undefined);
    if (mode !== 'live' && track?.source === 'live') store.replace(undefined);
  }, [mode]);
  useEffect(() => {
    if (!initialRecording || !fromServer) return;
    if (recordingKindOf(initialRecording) === 'patrol') patrol.openFromServer(initialRecording);
    else recording.openFromServer(initialRecording);
  }, []);
  // A Patrol recording asked for at start is shown on the first Patrol machine, once the machines are listed.
  const [pickedPatrol, setPickedPatrol] = useState(false);
  useEffect(() => {
    if (pickedPatrol || !initialRecording || recordingKindOf(initialRecording) !== 'patrol') return;
    const i = machines.findIndex((m) => m.ok && m.kind === 'patrol');
    if (i >= 0) (setMachineIndex(i), setPickedPatrol(true));
  }, [machines]);
  // In live mode, follow the asked-for session, else the newest one, moving on to each new session
  // as it appears, until the user picks one.
  const [autoFollow, setAutoFollow] = useState(initialSession === undefined);
  useEffect(() => {
    if (mode !== 'live') return;
    if (autoFollow) {
      const newest = live.sessions.at(-1);
      if (newest && newest.id !== live.followed) live.follow(newest.id);
    } else if (!live.followed && initialSession && live.sessions.some((s) => s.id === initialSession)) {
      live.follow(initialSession);
    }
  }, [mode, live.sessions, live.followed, autoFollow]);
  // A session a link asked for that the hub does not list (yet): said, until it comes or another is picked.
  const awaited =
    mode === 'live' &&
    !autoFollow &&
    !live.followed &&
    initialSession &&
    !live.sessions.some((s) => s.id === initialSession)
      ? initialSession
      : undefined;
  const pickSession = useCallback(
    (id: string) => {
      setAutoFollow(false);
      live.follow(id);
    },
    [live.follow],
  );
  const openAt = useOpenAtStep(track, version, {
    seek: (index) => playback.send({ type: 'SEEK', index }),
    openRecording: (name) => {
      sendMode({ type: 'SHOW', mode: 'recordings' });
      recording.openFromServer(name);
    },
    followLive: (id) => {
      sendMode({ type: 'SHOW', mode: 'live' });
      pickSession(id);
    },
  });

  const { send } = playback;
  const lastPatrolStep = patrolSteps.length - 1;
  const keys = useMemo(
    (): Record<string, () => void> =>
      patrolMachine
        ? {
            ArrowRight: () => setPatrolCursor((c) => Math.min(lastPatrolStep, c + 1)),
            ArrowLeft: () => setPatrolCursor((c) => Math.max(0, c - 1)),
            Home: () => setPatrolCursor(0),
            End: () => setPatrolCursor(Math.max(0, lastPatrolStep)),
          }
        : {
            ArrowRight: () => send({ type: 'STEP_FORWARD' }),
            ArrowLeft: () => send({ type: 'STEP_BACK' }),
            ' ': () => send({ type: 'TOGGLE' }),
            Home: () => send({ type: 'FIRST' }),
            End: () => send({ type: 'LAST' }),
          },
    [send, patrolMachine, lastPatrolStep],
  );
  // The playback shortcuts (space, arrows, Home/End) would steal keys from the editor's buttons and fields.
  useKeyboard(mode === 'edit' ? NO_KEYS : keys);

  const entries = track?.entries ?? [];
  const cursor = playback.cursor;
  const entry = cursor >= 0 ? entries[cursor] : undefined;
  const detail = analyzer && entry ? analyzer.detailAt(cursor) : undefined;
  // The state of the step shown; nothing when nothing is open (no made-up initial state).
  const patrolStep = patrolMachine ? patrolSteps[patrolCursor] : undefined;
  const patrolTransition =
    patrolMachine && patrolStep
      ? patrolTransitionTaken(
          patrolMachine.definition,
          patrolCursor > 0 ? patrolSteps[patrolCursor - 1]!.after.state : patrolMachine.definition.initial,
          patrolStep.event.type,
          patrolStep.after.state,
        )
      : undefined;
  const moment: DiagramMoment = patrolMachine
    ? {
        active: patrolStep?.after.state,
        step: patrolCursor,
        ...(patrolTransition !== undefined && { transition: patrolTransition }),
      }
    : {
        active: entry?.after,
        step: cursor,
        ...(detail?.transition !== undefined && { transition: detail.transition }),
        ...(entry?.decision === 'blocked' && {
          blocked: { reasonCode: entry.reasonCode ?? 'BLOCKED', state: entry.before },
        }),
      };
  const divergencesAt = useCallback((i: number) => analyzer?.divergencesAt(i) ?? [], [analyzer, done]);
  const sessionsInTrack = useMemo(() => {
    const ids = new Set<string>();
    for (let i = 0; i < Math.min(entries.length, 5000) && ids.size < 2; i++) ids.add(entries[i]!.session);
    return ids.size;
  }, [track, version > 0]);

  const diagram = (
    <div className="diagram-wrap" ref={diagramPane}>
      {!machine?.ok && machine && (
        <p className="error">
          Machine {machine.file} is invalid: {machine.error}
        </p>
      )}
      {layoutError && <p className="error">{layoutError}</p>}
      {graph && layout && <DiagramViewport model={graph} layout={layout} moment={moment} />}
      {graph && !layout && !layoutError && <p className="muted">Laying out {graph.id}…</p>}
    </div>
  );
  const patrolDiverged = new Set(patrol.run?.divergences.map((d) => d.step));

  return (
    <div className={mode === 'edit' ? 'app app-edit' : mode === 'insights' ? 'app app-insights' : 'app app-split'}>
      <header className="topbar">
        <h1>assistant-safety</h1>
        <nav className="modes" aria-label="mode">
          {APP_MODES.map((m) => (
            <button
              key={m}
              type="button"
              className={m === mode ? 'selected' : ''}
              data-mode={m}
              data-testid={m === 'edit' ? 'edit-mode' : undefined}
              onClick={() => sendMode({ type: 'SHOW', mode: m })}
            >
              {MODE_LABELS[m]}
            </button>
          ))}
        </nav>
        {machines.length > 1 && (
          <nav className="machines" aria-label="machine">
            {machines.map((m, i) => (
              <button
                key={m.file}
                type="button"
                className={i === machineIndex ? 'selected' : ''}
                onClick={() => setMachineIndex(i)}
              >
                {m.file.replace(/\.json$/, '')}
              </button>
            ))}
          </nav>
        )}
        <HeaderState
          state={mode === 'edit' ? editShown : mode === 'insights' ? undefined : moment.active}
          blocked={
            // A safety session's block, never shown over a Patrol run (its steps have no blocks).
            mode !== 'edit' && !patrolMachine && entry?.decision === 'blocked' ? entry.reasonCode : undefined
          }
        />
      </header>

      {mode === 'insights' ? (
        <InsightsMode fromServer={fromServer} onOpen={openAt} />
      ) : mode === 'edit' ? (
        <MachineEditor
          file={machine?.file}
          fromServer={fromServer}
          onSaved={() => setMachinesSaved((n) => n + 1)}
          onShownState={setEditShown}
        />
      ) : patrolMachine ? (
        <>
          <aside className="left">
            {mode === 'recordings' ? (
              <RecordingSource
                list={recordingsOf('patrol')}
                listError={fromServer ? recording.listError : undefined}
                status={patrol.status}
                current={patrol.run?.name}
                onOpenServer={patrol.openFromServer}
                onOpenFile={patrol.openFile}
              />
            ) : (
              <p className="muted" data-testid="patrol-mode-note">
                {patrolMachine.file} is a Patrol run machine: open a recorded run in the Recordings view. Live sessions
                and the playground run the safety machine.
              </p>
            )}
          </aside>
          <main className="center">
            {diagram}
            <div className="track-bar">
              <span className="track-title">
                {patrol.run && mode === 'recordings' ? patrol.run.name : 'Nothing open'}
              </span>
              {patrol.run && mode === 'recordings' && (
                <span className="analysis muted" data-testid="analysis-status">
                  replayed against {patrolMachine.file}:{' '}
                  {patrol.run.divergences.length === 0
                    ? 'no divergence'
                    : `${patrol.run.divergences.length} divergence(s)`}
                </span>
              )}
            </div>
            {mode === 'recordings' && patrol.run && (
              <PatrolTimeline
                steps={patrolSteps}
                cursor={patrolCursor}
                onSelect={setPatrolCursor}
                diverged={patrolDiverged}
              />
            )}
          </main>
          {mode === 'recordings' && patrol.run ? (
            <PatrolRunPanel recording={patrol.run.recording} cursor={patrolCursor} />
          ) : (
            <aside className="context-panel" />
          )}
        </>
      ) : (
        <>
          <aside className="left">
            {mode === 'recordings' && (
              <RecordingSource
                list={recordingsOf('safety')}
                listError={fromServer ? recording.listError : undefined}
                status={recording.status}
                current={track?.source === 'recording' ? track.title : undefined}
                onOpenServer={recording.openFromServer}
                onOpenFile={recording.openFile}
              />
            )}
            {mode === 'live' &&
              (fromServer ? (
                <LiveSessionList
                  status={live.status}
                  sessions={live.sessions}
                  followed={live.followed}
                  error={live.error}
                  onFollow={pickSession}
                  autoFollow={autoFollow}
                  onAutoFollow={setAutoFollow}
                  awaited={awaited}
                />
              ) : (
                <p className="muted">Live sessions need the server: run `assistant-safety serve`.</p>
              ))}
            {mode === 'playground' && (
              <PlaygroundControls
                session={playground.session}
                message={playground.message}
                call={playground.call}
                newCallId={playground.newCallId}
                onRestart={playground.restart}
                onSave={() => download(`${playground.session?.id ?? 'playground'}.jsonl`, playground.toJSONL())}
              />
            )}
          </aside>

          <main className="center">
            {diagram}
            <div className="track-bar">
              <span className="track-title">
                {track ? track.title : awaited ? `waiting for session ${awaited}` : 'Nothing open'}
              </span>
              {track?.warning && <span className="warning">{track.warning}</span>}
              {analyzer && (
                <span className="analysis muted" data-testid="analysis-status">
                  {done < entries.length
                    ? `replaying against ${machine?.file}: ${Math.floor((100 * done) / Math.max(1, entries.length))}%`
                    : `replayed against ${machine?.file}: ${analyzer.divergences.length === 0 ? 'no divergence' : `${analyzer.divergences.length} divergence(s)`}`}
                </span>
              )}
            </div>
            <PlaybackControls
              cursor={cursor}
              length={entries.length}
              playing={playback.playing}
              speed={playback.speed}
              send={send}
            />
            <Timeline
              entries={entries}
              version={version}
              cursor={cursor}
              onSelect={(index) => send({ type: 'SEEK', index })}
              divergencesAt={divergencesAt}
              showSession={sessionsInTrack > 1}
            />
          </main>

          <ContextPanel
            entry={entry}
            index={entry ? cursor : undefined}
            recoveries={entry && analyzer ? analyzer.recoveriesAt(cursor, entry.at) : undefined}
            recoveryTtlMs={detail?.context?.config.recoveryTtlMs}
            replayed={detail?.context}
          />
        </>
      )}
    </div>
  );
}

/** The header's "state X": the state of what the diagram shows, and nothing when it shows no step. */
function HeaderState({ state, blocked }: { state: string | undefined; blocked: string | undefined }) {
  return (
    <div className="now">
      {state ? (
        <>
          state <strong data-testid="active-state">{state}</strong>
        </>
      ) : (
        <span className="muted" data-testid="no-active-state">
          no step shown
        </span>
      )}
      {blocked && <span className="blocked-tag">blocked: {blocked}</span>}
    </div>
  );
}
