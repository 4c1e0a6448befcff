import { useState } from 'react';
import type { RecordedCall } from 'assistant-safety';
import type { SafetySession } from 'assistant-safety';
import { TOOL_KINDS, type ToolKind } from 'assistant-safety';

export interface PlaygroundControlsProps {
  session: SafetySession | undefined;
  message: string | undefined;
  call: (c: RecordedCall) => void;
  newCallId: () => string;
  onRestart: () => void;
  onSave: () => void;
}

const DEFAULT_TOOLS: Record<ToolKind, string> = {
  resolve: 'find_vm',
  read: 'get_status',
  write: 'restart_vm',
  user_input: 'ask_user',
};

/** A control for every API call of a session running in the page. */
export function PlaygroundControls({ session, message, call, newCallId, onRestart, onSave }: PlaygroundControlsProps) {
  const [tools, setTools] = useState(DEFAULT_TOOLS);
  const [errorCode, setErrorCode] = useState('TIMEOUT');
  if (!session) return <p className="muted">Starting the playground…</p>;
  const inFlight = Object.entries(session.context.calls);
  return (
    <section className="source playground">
      <h2>Playground</h2>
      <p className="muted">
        A real session on this machine, in the page. State: <strong>{session.state}</strong>
      </p>
      <h3>Tool calls</h3>
      <div className="pg-kinds">
        {TOOL_KINDS.map((kind) => (
          <div key={kind} className="pg-kind">
            <label>
              <span className="pg-kind-name">{kind}</span>
              <input
                aria-label={`${kind} tool name`}
                value={tools[kind]}
                onChange={(e) => setTools({ ...tools, [kind]: e.target.value })}
              />
            </label>
            <span className="pg-kind-buttons">
              <button
                type="button"
                data-pg={`begin-${kind}`}
                title="beginToolCall (call-lifecycle API)"
                onClick={() => call({ type: 'beginToolCall', id: newCallId(), kind, tool: tools[kind] || kind })}
              >
                begin
              </button>
              <button
                type="button"
                data-pg={`check-${kind}`}
                title="canExecuteTool (compatible API)"
                onClick={() => call({ type: 'canExecuteTool', kind, tool: tools[kind] || kind })}
              >
                check
              </button>
              <button
                type="button"
                data-pg={`success-${kind}`}
                title="onToolSuccess (compatible API)"
                onClick={() => call({ type: 'onToolSuccess', kind, tool: tools[kind] || kind })}
              >
                success
              </button>
            </span>
          </div>
        ))}
      </div>
      <h3>In flight</h3>
      {inFlight.length === 0 && <p className="muted">none</p>}
      <ul className="pg-inflight">
        {inFlight.map(([id, c]) => (
          <li key={id}>
            <code>
              #{id} {c.kind} {c.tool}
            </code>{' '}
            <button type="button" data-pg={`end-ok-${id}`} onClick={() => call({ type: 'endToolCall', id, ok: true })}>
              ok
            </button>
            {c.kind === 'write' && (
              <button type="button" onClick={() => call({ type: 'endToolCall', id, ok: true, verified: true })}>
                ok, verified
              </button>
            )}
            <button
              type="button"
              data-pg={`end-fail-${id}`}
              onClick={() => call({ type: 'endToolCall', id, ok: false })}
            >
              fail
            </button>
          </li>
        ))}
      </ul>
      <h3>Session</h3>
      <div className="pg-buttons">
        <button type="button" data-pg="final-answer" onClick={() => call({ type: 'canFinalAnswer' })}>
          final answer?
        </button>
        <button type="button" data-pg="complete-verification" onClick={() => call({ type: 'completeVerification' })}>
          complete verification
        </button>
        <button type="button" onClick={() => call({ type: 'targetEstablished' })}>
          target established
        </button>
        <button type="button" onClick={() => call({ type: 'resetKeepProgress' })}>
          reset, keep progress
        </button>
        <button type="button" onClick={() => call({ type: 'reset' })}>
          reset
        </button>
      </div>
      <h3>Recoveries</h3>
      <div className="pg-buttons">
        <input aria-label="error code" value={errorCode} onChange={(e) => setErrorCode(e.target.value)} size={10} />
        <button type="button" onClick={() => call({ type: 'trackPendingRecovery', errorCode, tool: tools.write })}>
          track ({tools.write})
        </button>
        <button type="button" onClick={() => call({ type: 'checkRecoverySuccess', tool: tools.write })}>
          check ({tools.write})
        </button>
      </div>
      {message && (
        <p className="pg-message" data-testid="playground-message">
          {message}
        </p>
      )}
      <div className="pg-buttons">
        <button type="button" data-pg="save" onClick={onSave}>
          save as recording
        </button>
        <button type="button" onClick={onRestart}>
          new session
        </button>
      </div>
    </section>
  );
}
