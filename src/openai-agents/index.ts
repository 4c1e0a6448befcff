/*
 * assistant-safety/openai-agents: the gate in the OpenAI Agents SDK
 * (`@openai/agents`, an optional peer dependency). `guardedTool` is `tool()`
 * with every call gated, `guardModel` re-prompts a final answer about an
 * unverified write, `finalAnswerGuardrail` stops one that is still
 * unverified. docs/openai-agents.md.
 */
export { guardedTool, GuardOptions } from './guardedTool.js';
export { guardModel, GuardModelOptions, finalAnswerGuardrail, FINAL_ANSWER_GUARDRAIL } from './guardModel.js';
export { rePromptText } from '../harness/adapters/adapterKit.js';
