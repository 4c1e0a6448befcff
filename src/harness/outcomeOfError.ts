/** Names of errors that mean "we stopped waiting", not "the tool said no": its tool may have acted. */
const UNKNOWN_NAMES = new Set(['TimeoutError', 'AbortError']);
/** Error codes that mean the connection to the tool was cut while it ran. */
const UNKNOWN_CODES = new Set([
  'ABORT_ERR',
  'ETIMEDOUT',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ERR_STREAM_PREMATURE_CLOSE',
  'UND_ERR_SOCKET',
]);

function read(value: object, key: string): unknown {
  return (value as Record<string, unknown>)[key];
}

/**
 * What a thrown value says about a call that was running: `failed` when the tool
 * reported failure (an ordinary `Error`), `unknown` when its tool may have acted or may
 * still act: a timeout, an abort, a cancelled or cut-off call, or a value that cannot be
 * classified (not an `Error`, or one whose fields throw when read). The one rule every
 * harness uses (the tool loop, the SDK adapters, the MCP gateway, the Redis path): an
 * unknown outcome of a write must be verified, a failed write changes nothing.
 *
 * @example
 * outcomeOfError(new Error('disk full'));                        // 'failed'
 * outcomeOfError(new DOMException('too slow', 'TimeoutError')); // 'unknown'
 * outcomeOfError('boom');                                        // 'unknown': not an Error
 */
export function outcomeOfError(error: unknown): 'failed' | 'unknown' {
  try {
    if (!(error instanceof Error)) return 'unknown';
    const name = read(error, 'name');
    if (typeof name === 'string' && UNKNOWN_NAMES.has(name)) return 'unknown';
    const code = read(error, 'code');
    if (typeof code === 'string' && UNKNOWN_CODES.has(code)) return 'unknown';
    return 'failed';
  } catch {
    return 'unknown'; // a hostile value (a Proxy that throws on every trap): nothing can be said, so fail closed
  }
}
