import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';

/*
 * The JSON-RPC vocabulary the gateway's pieces share: the error codes it answers with, and
 * small readers of messages that never throw on a hostile value.
 */

/** JSON-RPC error codes the gateway answers with. */
export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INVALID_REQUEST = -32600;
export const JSONRPC_INVALID_PARAMS = -32602;
export const JSONRPC_INTERNAL_ERROR = -32603;
/** The MCP server went away before answering (the SDK's `ConnectionClosed`). */
export const JSONRPC_CONNECTION_CLOSED = -32000;
/** The SDK's request timeout: an MCP proxy between the gateway and the tool gave up waiting. */
const JSONRPC_REQUEST_TIMEOUT = -32001;

/** A thrown value's message, for a log line; never throws (a hostile value has none). */
export function messageOf(e: unknown): string {
  try {
    return e instanceof Error ? e.message : String(e);
  } catch {
    return 'an unreadable thrown value';
  }
}

export const asObject = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/**
 * A JSON-RPC error that says the call was cut off, not refused: a proxy in between (another
 * gateway) lost its server, or gave up waiting. The tool may have acted.
 */
export function cutOff(error: unknown): boolean {
  const code = asObject(error)?.code;
  return code === JSONRPC_CONNECTION_CLOSED || code === JSONRPC_REQUEST_TIMEOUT;
}

/** A request id as a map key: `1` and `"1"` are different requests. */
export const keyOf = (id: RequestId): string => (typeof id === 'string' ? `s:${id}` : `n:${id}`);
/** The request id a {@link keyOf} key stands for. */
export const idOfKey = (key: string): RequestId => (key.startsWith('n:') ? Number(key.slice(2)) : key.slice(2));

export const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => 'method' in m && 'id' in m;
export const isNotification = (m: JSONRPCMessage): m is Extract<JSONRPCMessage, { method: string }> =>
  'method' in m && !('id' in m);
