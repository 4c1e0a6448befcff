/*
 * assistant-safety/export: the machine as Mermaid and SCXML text (runtime-neutral).
 */
export { toMermaid } from './toMermaid.js';
export { toScxml, SCXML_ACTION_NAMESPACE } from './toScxml.js';
export * from './describeTransition.js';
