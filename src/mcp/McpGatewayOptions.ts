import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ToolDeclaration } from '../classify/index.js';
import type { BlockReasonCode, SafetySession, SessionRecorder, ToolKind } from '../index.js';
import type { AnnotationTrust } from './annotationTrust.js';
import type { SharedGatewaySession } from './SharedGatewaySession.js';
import type { ToolDefinitionChange } from './toolCatalogue.js';

/* The gateway's options and its running handle (see `createMcpGateway`). */

export interface McpGatewayOptions {
  /** Towards the client: the gateway is its MCP server (e.g. {@link createStdioServerTransport}). */
  upstream: Transport;
  /** Towards the real MCP server: the gateway is its client (e.g. the SDK's `StdioClientTransport`). */
  downstream: Transport;
  /** The safety session every tool call goes through. Default: a new one with `recorder`. */
  session?: SafetySession;
  /** Recorder of the default session (ignored when `session` is given). */
  recorder?: SessionRecorder;
  /**
   * A session kept outside this process (`createRedisGatewaySession` from `assistant-safety/redis`):
   * every decision is saved there before the call reaches the server, every end before the
   * gateway goes on, and the calls a gone gateway left in flight are ended as unknown outcomes
   * (see {@link SharedGatewaySession}). `session` and `recorder` are then unused.
   */
  sharedSession?: SharedGatewaySession;
  /** Classifier rules (the `createClassifier` format); they win over what the tools declare. */
  rules?: unknown;
  /** Opt in to the name-verb heuristic for tools that declare nothing (docs/classification.md). */
  nameVerbs?: boolean;
  /**
   * Replaces classification from declarations altogether: `(toolName, args, declaration) => kind`.
   * `rules` and `nameVerbs` are then unused.
   */
  classify?: (toolName: string, args: unknown, declaration: ToolDeclaration | undefined) => ToolKind;
  /** Diagnostics (one line each). Default: none. The stdio gateway writes them to stderr. */
  log?: (line: string) => void;
  /** How long a tools/call waits for the server's tool list before classifying without it. Default 10 s. */
  toolListTimeoutMs?: number;
  /**
   * How far the server's MCP annotations are believed: `all` (the default), `destructive-only`
   * (they can only make a tool stricter) or `none` (only `rules` make a tool anything but a write).
   */
  trustAnnotations?: AnnotationTrust;
  /**
   * How long a write the client cancelled stays in flight (so the next write is blocked
   * `WRITE_IN_FLIGHT`) while the server has not answered it. After that its outcome is
   * unknown: it must be verified. Default 30 s.
   */
  cancelGraceMs?: number;
  /**
   * Block reasons to put to the person behind the client (MCP elicitation), e.g.
   * `['NO_VALIDATED_TARGET', 'TARGET_NOT_VALIDATED']`: when the client declared the elicitation
   * capability, such a block becomes a question naming the tool, its targets and what is missing;
   * an accept attests the missing evidence (`session.attest(block, { by: 'mcp-client' })`) and the
   * gate is asked again. Otherwise, or on a decline, the client gets the blocked result. Default none.
   */
  escalate?: readonly BlockReasonCode[];
  /** How long an escalation waits for the client's answer before the call stays blocked. Default 5 min. */
  escalationTimeoutMs?: number;
}

/** Why a gateway stopped. */
export interface McpGatewayExit {
  reason: 'client-closed' | 'server-closed' | 'closed';
  /** Tool calls that were in flight (cancelled ones included) and were ended with an unknown outcome. */
  endedInFlight: number;
}

/** A running gateway. See {@link createMcpGateway}. */
export interface McpGateway {
  /** The session (with `sharedSession`: as it was at the last decision or end this gateway saved). */
  readonly session: SafetySession;
  /**
   * Starts the downstream transport, then the upstream one (with `sharedSession`, first loads the
   * session and ends the calls a gone gateway left in flight; rejects when it cannot be saved).
   */
  start(): Promise<void>;
  /** Stops both sides; in-flight calls are ended as failed. */
  close(): Promise<void>;
  /** Settles once, when either side closes or {@link McpGateway.close} is called. */
  readonly closed: Promise<McpGatewayExit>;
  /** The tools the server declared, as pinned when each was first listed. */
  readonly tools: ReadonlyMap<string, ToolDeclaration>;
  /** Tools whose definition changed after it was pinned, in the order seen (each counted once). */
  readonly definitionChanges: readonly ToolDefinitionChange[];
  /** The kind a call would get now, and why. */
  explain(toolName: string, args?: unknown): { kind: ToolKind; rule: string; detail: string };
}
