import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createSafetySession, SafetyInputError } from 'assistant-safety';
import { createMcpGateway, listenHttp } from 'assistant-safety/mcp';
import { guardHooks } from 'assistant-safety/claude-agent-sdk';
import { createOtelRecorder } from 'assistant-safety/otel';
import { auditFiles, createFileSessionStore } from 'assistant-safety/node';
import { runPatrol } from 'assistant-safety/patrol';
import { guardTools } from 'assistant-safety/ai-sdk';
import { finalAnswerGuardrail } from 'assistant-safety/openai-agents';
import { createRedisSessionStore } from 'assistant-safety/redis';

/*
 * The integrations whose options are not a schema of their own refuse an option they do not have, as
 * the session does: a misspelt `rules` would gate MCP calls with heuristics nobody chose, a misspelt
 * `escalate` would deny what was meant to be asked.
 */
describe('misspelt options of the integrations', () => {
  it('should refuse a misspelt MCP gateway option, naming it and the one it looks like', () => {
    const [upstream] = InMemoryTransport.createLinkedPair();
    const [downstream] = InMemoryTransport.createLinkedPair();
    expect(() => createMcpGateway({ upstream, downstream, rule: { tools: {} } } as never)).toThrow(
      new TypeError('createMcpGateway: options.rule: unknown field (did you mean rules?)'),
    );
    expect(() => createMcpGateway({ upstream, downstream, rules: { tools: {} } })).not.toThrow();
  });

  it('should refuse a misspelt option of the Claude Agent SDK hooks', () => {
    const session = createSafetySession();
    expect(() => guardHooks({ session, escalte: ['NO_VALIDATED_TARGET'] } as never)).toThrow(
      new TypeError('guardHooks: options.escalte: unknown field (did you mean escalate?)'),
    );
    expect(guardHooks({ session, escalate: ['NO_VALIDATED_TARGET'] }).hooks.PreToolUse).toHaveLength(1);
  });

  it('should refuse a misspelt OpenTelemetry recorder option', () => {
    expect(() => createOtelRecorder({ metric: false } as never)).toThrow(
      new TypeError('createOtelRecorder: options.metric: unknown field (did you mean metrics?)'),
    );
    expect(typeof createOtelRecorder({ traces: false }).record).toBe('function');
  });

  it('should refuse a misspelt file session store option', () => {
    expect(() => createFileSessionStore({ dirr: '/nonexistent' } as never)).toThrow(
      new TypeError('createFileSessionStore: options.dirr: unknown field (did you mean dir?)'),
    );
    // The CLI's --state-dir and ASSISTANT_SAFETY_STATE_DIR make `stateDir` the natural guess.
    expect(() => createFileSessionStore({ stateDir: '/nonexistent' } as never)).toThrow(
      new TypeError('createFileSessionStore: options.stateDir: unknown field (did you mean dir?)'),
    );
  });

  it('should refuse a misspelt option of the HTTP gateway before it listens', async () => {
    await expect(
      listenHttp({
        connectServer: () => InMemoryTransport.createLinkedPair()[0],
        createSession: (id: string) => createSafetySession({ id }),
        trustAnnotation: 'all',
      } as never),
    ).rejects.toThrow(
      new TypeError('listenHttp: options.trustAnnotation: unknown field (did you mean trustAnnotations?)'),
    );
  });

  it("should refuse the file store's misspelt session options at once, and never call a good file corrupt for bad options", async () => {
    expect(() => createFileSessionStore({ session: { targts: 'bind' } } as never)).toThrow(
      new TypeError('createFileSessionStore: options.session.targts: unknown field (did you mean targets?)'),
    );
    const dir = mkdtempSync(join(tmpdir(), 'misspelt-'));
    try {
      await createFileSessionStore({ dir }).withSession('s1', (s) => s.targetEstablished());
      // A bad value (not a misspelling) is only found when a session is made from the file.
      const bad = createFileSessionStore({ dir, session: { recoveryTtlMs: -5 } });
      const error = await bad
        .withSession('s1', () => undefined)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(SafetyInputError);
      expect((error as Error).message).toMatch(/^options\.recoveryTtlMs: /);
      expect((error as Error).message).not.toMatch(/corrupt/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('should refuse a misspelt audit option before reading any trace', async () => {
    await expect(auditFiles(['/nonexistent'], { rule: { tools: {} } } as never)).rejects.toThrow(
      new TypeError('auditFiles: options.rule: unknown field (did you mean rules?)'),
    );
  });

  it('should refuse a misspelt Patrol run option before the run starts', async () => {
    const steps: unknown[] = [];
    await expect(
      runPatrol({
        tools: {},
        passes: { main: async () => undefined },
        onStep: (s: unknown) => steps.push(s),
        sessionOption: {},
      } as never),
    ).rejects.toThrow(new TypeError('runPatrol: options.sessionOption: unknown field (did you mean sessionOptions?)'));
    expect(steps).toEqual([]);
  });

  it('should name the option meant where a schema refuses one: the AI SDK wrapper, the Agents SDK and the Redis store', () => {
    const session = createSafetySession();
    expect(() => guardTools({}, { session, classify: () => 'read', escalte: [] } as never)).toThrow(
      new TypeError('guardTools: options: Unrecognized key: "escalte" (did you mean escalate?)'),
    );
    expect(() => finalAnswerGuardrail({ sesion: session } as never)).toThrow(
      /^finalAnswerGuardrail: .*Unrecognized key: "sesion" \(did you mean session\?\)/,
    );
    expect(() => createRedisSessionStore({ url: 'redis://127.0.0.1:1', idleTtlMS: 5 } as never)).toThrow(
      new TypeError('createRedisSessionStore: options: Unrecognized key: "idleTtlMS" (did you mean idleTtlMs?)'),
    );
  });
});
