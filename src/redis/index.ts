/*
 * assistant-safety/redis: sessions shared by any number of worker processes
 * through Redis (peer dependency: ioredis). Optimistic concurrency (one Lua
 * script checks and replaces a version), fail closed, idle expiry, and an
 * optional Redis Stream per session holding its recording in save order.
 * docs/redis.md shows a two-worker setup end to end.
 */
export { createRedisSessionStore } from './createRedisSessionStore.js';
export type {
  RedisSessionStore,
  RedisSessionStoreStats,
  StoredSession,
  StoredSessionSummary,
} from './createRedisSessionStore.js';
export { RedisSessionStoreOptions, RedisStreamOptions, StoreSessionOptions, RedisDurability } from './options.js';
export {
  SessionStoreUnavailableError,
  SessionConflictError,
  SessionStoreClosedError,
  AsyncSessionFunctionError,
  SessionLostError,
  SessionKeyTypeError,
} from './errors.js';
export type { SessionLossKind } from './errors.js';
export { runGuardedToolCall } from './runGuardedToolCall.js';
export type { GuardedToolCallResult, GuardedToolCallOptions } from './runGuardedToolCall.js';
export { StreamRecordError } from './streamRecords.js';
export type { StreamRecord } from './streamRecords.js';
export { startRedisLiveBridge } from './liveBridge.js';
export type { RedisLiveBridge, RedisLiveBridgeOptions } from './liveBridge.js';
export { createRedisGatewaySession, DEFAULT_ORPHAN_AFTER_MS } from './createRedisGatewaySession.js';
export { RedisGatewaySessionOptions } from './createRedisGatewaySession.js';
export type { RedisGatewaySession, RedisGatewaySessionStats } from './createRedisGatewaySession.js';
