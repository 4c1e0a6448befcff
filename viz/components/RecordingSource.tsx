import { useState, type DragEvent } from 'react';
import type { RecordingFileInfo } from 'assistant-safety/live';
import type { RecordingStatus } from '../hooks/useRecording.js';
import { formatCount } from '../model/format.js';

export interface RecordingSourceProps {
  list: RecordingFileInfo[] | undefined;
  listError: string | undefined;
  status: RecordingStatus;
  current: string | undefined;
  onOpenServer: (name: string) => void;
  onOpenFile: (file: File) => void;
}

const kb = (n: number) =>
  n < 1024 ? `${n} B` : n < 1 << 20 ? `${(n / 1024).toFixed(1)} KB` : `${(n / (1 << 20)).toFixed(1)} MB`;

/** Where recordings come from: the server's folder, a file picker, or a file dropped on the zone. */
export function RecordingSource({ list, listError, status, current, onOpenServer, onOpenFile }: RecordingSourceProps) {
  const [over, setOver] = useState(false);
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const file = e.dataTransfer.files[0];
    if (file) onOpenFile(file);
  };
  return (
    <section className="source">
      <h2>Recordings</h2>
      {listError && <p className="error">Cannot list the server's recordings: {listError}</p>}
      {list && list.length === 0 && <p className="muted">The server's recordings folder has no .jsonl files.</p>}
      {list && list.length > 0 && (
        <ul className="recording-list">
          {list.map((r) => (
            <li key={r.name}>
              <button
                type="button"
                className={r.name === current ? 'selected' : ''}
                data-recording={r.name}
                onClick={() => onOpenServer(r.name)}
              >
                {r.name} <span className="muted">{kb(r.size)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div
        className={`dropzone${over ? ' over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p>Drop a .jsonl recording here, or</p>
        <label className="file-label">
          choose a file…
          {/* The native control is hidden: the label is the one file chooser. */}
          <input
            className="visually-hidden"
            type="file"
            accept=".jsonl,.json,.txt,application/x-ndjson"
            data-testid="open-recording"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) onOpenFile(file);
              e.target.value = '';
            }}
          />
        </label>
      </div>
      {status.kind === 'loading' && (
        <p className="muted" data-testid="recording-loading">
          Opening {status.name}…{status.progress !== undefined && ` ${Math.floor(status.progress * 100)}%`}
        </p>
      )}
      {status.kind === 'open' && (
        <p className="muted" data-testid="recording-status">
          {status.name}: {formatCount(status.events)} events, opened in {Math.round(status.ms)} ms
        </p>
      )}
      {status.kind === 'error' && (
        <p className="error" role="alert" data-testid="recording-error">
          Could not open {status.message}
        </p>
      )}
    </section>
  );
}
