import { describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createSafetySession, createToolLoop } from 'assistant-safety';
import { createMcpGateway } from 'assistant-safety/mcp';
import { createRedisSessionStore } from 'assistant-safety/redis';

/*
 * A delay past 2^31-1 ms does not make a timer wait longer: it fires after 1 ms. A grace period of
 * 99,999,999,999 ms would end a cancelled write at once, and a tool time-out that large would time
 * out every call. Every option that becomes a timer refuses such a value, naming it.
 */

const HUGE = 99_999_999_999;

describe('an option that becomes a timer, set past what a timer keeps', () => {
  it.each(['cancelGraceMs', 'toolListTimeoutMs', 'escalationTimeoutMs'])('is refused by the gateway: %s', (key) => {
    const [upstream, downstream] = InMemoryTransport.createLinkedPair();
    expect(() => createMcpGateway({ upstream, downstream, [key]: HUGE })).toThrow(
      `createMcpGateway: options.${key}: expected at most 2147483647 ms (a longer timer fires at once), got ${HUGE}`,
    );
    expect(() => createMcpGateway({ upstream, downstream, [key]: 0 })).toThrow(
      `options.${key}: expected at least 1 ms`,
    );
    expect(() => createMcpGateway({ upstream, downstream, [key]: 2 ** 31 - 1 })).not.toThrow();
  });

  it('is refused by the tool loop: toolTimeoutMs', () => {
    const loop = (toolTimeoutMs: number) =>
      createToolLoop({
        session: createSafetySession(),
        execute: async () => 'ok',
        toolTimeoutMs,
        classify: () => 'read',
      });
    expect(() => loop(HUGE)).toThrow(/toolTimeoutMs/);
    expect(() => loop(2 ** 31 - 1)).not.toThrow();
  });

  it.each(['timeoutMs', 'commandTimeoutMs', 'retryDelayMs', 'maxRetryDelayMs'])(
    'is refused by the Redis store: %s',
    (key) => {
      expect(() => createRedisSessionStore({ url: 'redis://127.0.0.1:1', [key]: HUGE })).toThrow(key);
    },
  );
});
