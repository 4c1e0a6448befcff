/*
 * assistant-safety/claude-agent-sdk: the gate in a Claude Agent SDK agent, through the SDK's own
 * hooks and canUseTool (docs/coding-agents.md). Needs `@anthropic-ai/claude-agent-sdk`, an
 * optional peer dependency.
 */
export { guardHooks } from './guardHooks.js';
export type { GuardHooksOptions, GuardedHooks, GuardSessionStore, EscalatedCall } from './guardHooks.js';
