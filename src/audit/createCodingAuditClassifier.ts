import { CODING_AGENT_TOOLS, createCodingAgentClassifier, type CodingAgentClassifier } from '../presets/codingAgent.js';
import type { ClassificationRule } from '../classify/index.js';
import type { AuditClassification, AuditClassifier } from './createAuditClassifier.js';

/** Options of {@link createCodingAuditClassifier}. */
export interface CodingAuditClassifierOptions {
  /** A coding-agent rules file (the `createClassifier` format, plus its `shell` section). */
  rules?: unknown;
  /** The folder the agent ran in: relative paths and shell commands of a call with no `cwd` of its own are read from it. */
  cwd?: string;
}

/**
 * The audit's classifier for a coding agent's transcript: the very classifier the hook decides
 * with (`createCodingAgentClassifier`: the coding-agent table, `Bash` by its command line, the
 * rules file winning), so an audit says what the hook would have done. The tools a trace declares
 * change nothing, as they change nothing for the hook. A call's `rule` is `rules` when the rules
 * file decided it, `kind` when the table or the shell reading did, `verbs` or `default` otherwise.
 *
 * @throws {ClassifierRulesError} for malformed rules, naming the path.
 * @example
 * const classifier = createCodingAuditClassifier({ cwd: '/repo' });
 * classifier.classify('Edit', { file_path: 'a.ts' }); // { kind: 'write', rule: 'kind', targets: ['file:/repo/a.ts'] }
 * classifier.classify('Bash', { command: 'npm test' }); // { kind: 'read', rule: 'kind', check: true }
 * classifier.classify('Edit', { file_path: 'a.ts' }, '/repo/src'); // targets: ['file:/repo/src/a.ts']: the call's own folder
 */
export function createCodingAuditClassifier(options: CodingAuditClassifierOptions = {}): AuditClassifier {
  const classifierIn = (cwd: string | undefined): CodingAgentClassifier =>
    createCodingAgentClassifier({
      ...(options.rules !== undefined && { rules: options.rules }),
      ...(cwd !== undefined && { cwd }),
    });
  const base = classifierIn(options.cwd);
  // A call made in another folder is read from it, as the hook reads each event from its own `cwd`.
  const elsewhere = new Map<string, CodingAgentClassifier>();
  const classifierAt = (cwd: string | undefined): CodingAgentClassifier => {
    if (cwd === undefined || cwd === '' || cwd === options.cwd) return base;
    let c = elsewhere.get(cwd);
    if (!c) elsewhere.set(cwd, (c = classifierIn(cwd)));
    return c;
  };
  const ruleOf = (tool: string, rule: string): ClassificationRule => {
    if (rule === 'the rules file') return 'rules';
    if (tool === 'Bash' || Object.hasOwn(CODING_AGENT_TOOLS, tool)) return 'kind';
    return rule === 'generic verbs' ? 'verbs' : 'default';
  };
  return {
    declare() {},
    classify(tool, args, cwd) {
      const call = classifierAt(cwd)(tool, args);
      const out: AuditClassification = { kind: call.kind, rule: ruleOf(tool, call.rule) };
      if (call.targets !== undefined) out.targets = call.targets;
      if (call.stateOnly) out.stateOnly = true;
      if (call.trust) out.trust = call.trust;
      if (call.creates) out.creates = true;
      if (call.created) out.created = call.created;
      if (call.egress) out.egress = true;
      if (call.check) out.check = true;
      if (call.delegates) out.delegates = true;
      return out;
    },
    discover: (tool, result, cwd) => classifierAt(cwd).discover?.(tool, result) ?? [],
  };
}
