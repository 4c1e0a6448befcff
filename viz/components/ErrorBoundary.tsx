import { Component, type ReactNode } from 'react';

/** Whatever goes wrong while drawing, the page says so instead of going blank. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | undefined }> {
  override state = { error: undefined as Error | undefined };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="crash" role="alert">
        <h1>The visualiser hit a problem</h1>
        <p className="error">{error.message}</p>
        <p>
          Reload the page to start again. If it happens again, the recording or machine you opened may be the cause:
          <code> assistant-safety replay FILE</code> checks a recording from the command line.
        </p>
        <button type="button" onClick={() => this.setState({ error: undefined })}>
          try again
        </button>
      </div>
    );
  }
}
