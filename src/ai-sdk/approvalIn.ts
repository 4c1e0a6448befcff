/** Who an attestation from an AI SDK tool approval names as its author. */
const AI_SDK_APPROVER = 'ai-sdk:tool-approval';

/**
 * The approval a person gave to call `toolCallId`, found in the messages the AI SDK hands a tool's
 * `execute`: a `tool-approval-response` with `approved: true` answering a `tool-approval-request`
 * for this call. Anything unreadable is no approval.
 */
export function approvalIn(
  messages: readonly unknown[] | undefined,
  toolCallId: string,
): { by: string; note?: string } | null {
  try {
    if (!Array.isArray(messages)) return null;
    const requests = new Set<string>();
    for (const part of partsOf(messages, 'assistant')) {
      if (part.type === 'tool-approval-request' && part.toolCallId === toolCallId) {
        if (typeof part.approvalId === 'string') requests.add(part.approvalId);
      }
    }
    for (const part of partsOf(messages, 'tool')) {
      if (part.type !== 'tool-approval-response' || part.approved !== true) continue;
      if (typeof part.approvalId !== 'string' || !requests.has(part.approvalId)) continue;
      return { by: AI_SDK_APPROVER, ...(typeof part.reason === 'string' && { note: part.reason }) };
    }
    return null;
  } catch {
    return null;
  }
}

function* partsOf(messages: readonly unknown[], role: string): Generator<Record<string, unknown>> {
  for (const message of messages) {
    const m = message as { role?: unknown; content?: unknown };
    if (typeof m !== 'object' || m === null || m.role !== role || !Array.isArray(m.content)) continue;
    for (const part of m.content as unknown[]) {
      if (typeof part === 'object' && part !== null) yield part as Record<string, unknown>;
    }
  }
}
