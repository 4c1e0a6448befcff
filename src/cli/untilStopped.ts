/** Resolves on the first SIGINT or SIGTERM (Ctrl-C, a supervisor's stop): long-running commands end cleanly. */
export function untilStopped(): Promise<void> {
  return new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
