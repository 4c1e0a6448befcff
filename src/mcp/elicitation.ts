import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { BlockReasonCode, FSMBlockedError } from '../index.js';
import { asObject } from './jsonRpc.js';

/*
 * Elicitation, the part the MCP SDK keeps in `Server.elicitInput`: a block whose reason is
 * listed in `escalate` becomes a question to the person behind the client, when the client said
 * at initialize that it can answer one. An accept attests the missing evidence.
 */

export interface ElicitationOptions {
  /** Block reasons to put to the person. */
  escalate: readonly BlockReasonCode[];
  /** How long a question waits for its answer (none: not attested). */
  timeoutMs: number;
  /** Sends an `elicitation/create` request to the client; resolves with its answer, or undefined (none came in time). */
  ask: (
    params: Record<string, unknown>,
    timeoutMs: number,
    relatedRequestId: RequestId,
  ) => Promise<JSONRPCMessage | undefined>;
  log: (line: string) => void;
}

/** See {@link createElicitation}. */
export interface Elicitation {
  /** Reads the client's capabilities from its `initialize` request params. */
  clientInitialized(params: unknown): void;
  /** Whether this block is put to the person (the client elicits and the reason is escalated). */
  wants(block: FSMBlockedError): boolean;
  /** Asks the person to attest what `block` says is missing; true when attested. */
  attests(block: FSMBlockedError, relatedRequestId: RequestId, tool: string): Promise<boolean>;
}

/** The `elicitation/create` params for a block: the tool, its targets, and what is missing. */
export function questionOf(block: FSMBlockedError, tool: string): Record<string, unknown> {
  const targets = block.targets?.length ? ` on ${block.targets.join(', ')}` : '';
  const missing =
    block.required === 'validated_target'
      ? `no validated target${targets}: nothing in this session has looked it up`
      : 'the last write has not been verified';
  return {
    message: `The agent wants to run the tool "${tool}"${targets}, and the safety gate blocked it (${block.reasonCode}): ${missing}. Attest that it is right to go ahead?`,
    requestedSchema: {
      type: 'object',
      properties: {
        attest: {
          type: 'boolean',
          title: 'Attest',
          description: `I vouch for what is missing (${block.required}) and let "${tool}" run`,
        },
      },
      required: ['attest'],
    },
  };
}

/**
 * @example
 * const elicitation = createElicitation({ escalate: ['NO_VALIDATED_TARGET'], timeoutMs: 300_000, ask, log });
 * elicitation.clientInitialized({ capabilities: { elicitation: {} } });
 * if (elicitation.wants(block) && (await elicitation.attests(block, requestId, 'restart'))) session.attest(block, { by: 'mcp-client' });
 */
export function createElicitation(options: ElicitationOptions): Elicitation {
  const escalate = new Set<string>(options.escalate);
  /** Whether the client said, at initialize, that it can answer elicitation requests. */
  let clientElicits = false;
  return {
    clientInitialized(params) {
      clientElicits = asObject(asObject(asObject(params)?.capabilities)?.elicitation) !== undefined;
    },
    wants: (block) => clientElicits && escalate.has(block.reasonCode),
    async attests(block, relatedRequestId, tool) {
      const answer = await options.ask(questionOf(block, tool), options.timeoutMs, relatedRequestId);
      const result = answer && 'result' in answer ? asObject(answer.result) : undefined;
      const accepted = result?.action === 'accept' && asObject(result.content)?.attest === true;
      options.log(`escalated ${tool} (${block.reasonCode}): ${accepted ? 'attested by the client' : 'not attested'}`);
      return accepted;
    },
  };
}
