/*
 * assistant-safety/live: the live hub's wire protocol (WebSocket messages and
 * the server's JSON responses) as zod schemas. Runtime-neutral: the app, the
 * server and the Node live recorder share it.
 */
export * from './protocol.js';
