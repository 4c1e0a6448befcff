/*
 * assistant-safety/classify: a classifier built from what tools already
 * declare (MCP annotations, a `kind` on an SDK's tool object) with an opt-in
 * name-verb heuristic; rules always win and every decision is explained.
 * Runtime-neutral, like the core it builds on.
 */
export {
  classifyFromTools,
  ToolDeclaration,
  ToolList,
  ToolDeclarationError,
  NAME_READ_VERBS,
  NAME_WRITE_VERBS,
} from './classifyFromTools.js';
export type {
  Classification,
  ClassificationRule,
  ExplainingClassifier,
  ClassifyFromToolsOptions,
  NameVerbs,
  ToolAnnotations,
} from './classifyFromTools.js';
export { discoveredTargets, ResultDiscovery } from '../harness/discoveredTargets.js';
export type { DiscoveredTarget } from '../harness/discoveredTargets.js';
