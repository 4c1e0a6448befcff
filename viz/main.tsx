import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { ErrorBoundary } from './components/ErrorBoundary.js';
import { APP_MODES, type AppMode } from './machines/appModeMachine.js';
import { pageToken } from './model/api.js';
import './styles.css';

const params = new URLSearchParams(location.search);
const fromServer = pageToken() !== '';
const asked = params.get('mode');
// Served with a hub, the page opens on the live sessions; a deep link to a recording opens that.
const initialMode: AppMode = APP_MODES.includes(asked as AppMode)
  ? (asked as AppMode)
  : params.get('recording')
    ? 'recordings'
    : fromServer
      ? 'live'
      : 'recordings';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorBoundary>
      <App
        fromServer={fromServer}
        initialMode={initialMode}
        {...(params.get('recording') && { initialRecording: params.get('recording')! })}
        {...(params.get('session') && { initialSession: params.get('session')! })}
      />
    </ErrorBoundary>
  </StrictMode>,
);
