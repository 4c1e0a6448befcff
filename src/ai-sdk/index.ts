/*
 * assistant-safety/ai-sdk: the gate in the Vercel AI SDK (`ai`, an optional
 * peer dependency). `guardTools` gates every tool call, `guardToolApproval`
 * asks a person for the evidence an escalated block is missing, `guardModel`
 * holds back a final answer about an unverified write. docs/ai-sdk.md.
 */
export { guardTools, GuardToolsOptions } from './guardTools.js';
export { guardToolApproval, GuardToolApprovalOptions } from './guardToolApproval.js';
export { guardModel, GuardModelOptions, METADATA_KEY } from './guardModel.js';
export { rePromptText } from '../harness/adapters/adapterKit.js';
export type { FinalAnswerFlag } from './guardModel.js';
export type { GuardApprovalStatus } from './guardToolApproval.js';
