import type { ToolKind } from '../safety/toolKind.js';
import { keysOf, refuseUnknownOptions } from '../core/knownKeys.js';
import {
  classifyFromTools,
  type ClassificationRule,
  type ExplainingClassifier,
  type NameVerbs,
  type ToolDeclaration,
} from '../classify/index.js';

/** The kind a call got, what decided it, and what the gate takes of it besides (the targets it names, trust, state-only). */
export interface AuditClassification {
  kind: ToolKind;
  rule: ClassificationRule;
  targets?: string[];
  stateOnly?: true;
  trust?: 'untrusted';
  creates?: true;
  created?: string[];
  egress?: true;
  /** Declared self-verifying: a result carrying `{ verification: { ok: true } }` verifies the write, as in the tool loop. */
  selfVerifying?: true;
  /** A project-wide check (a test run, a type check): evidence for every file edited before it (coding agents). */
  check?: true;
  /** A subagent (coding agents): under the coding profile its end makes every file need a read again. */
  delegates?: true;
}

export interface AuditClassifierOptions {
  /** Classifier rules (the `createClassifier` format): a tool they name is decided by them. */
  rules?: unknown;
  /** Opt in to the name-verb heuristic for tools nothing declares (see `classifyFromTools`). */
  nameVerbs?: boolean | NameVerbs;
}

/** Classifies the calls of the traces, learning the tools the traces declare as it goes. */
export interface AuditClassifier {
  /** Tools a trace declares (annotations, a `kind`): they decide those tools from now on. */
  declare(tools: readonly ToolDeclaration[]): void;
  /** `cwd`: the folder the call was made in, when the trace says; a classifier reading relative paths takes them from it. */
  classify(tool: string, args: unknown, cwd?: string): AuditClassification;
  /** The targets a result of `tool` reveals by its rule's `discovers` fields, each with its field. */
  discover(tool: string, result: unknown, cwd?: string): { target: string; field: string }[];
}

/**
 * The audit's classifier: `classifyFromTools` over every tool the traces declared so far, with
 * the given rules (which win, and name a call's targets, trust and state-only writes) and, when
 * asked, the name-verb heuristic; anything undeclared is a write (rule `default`), which the report
 * lists so a rules file can say otherwise.
 *
 * @throws {ClassifierRulesError} for malformed rules, naming the path.
 * @example
 * const classifier = createAuditClassifier({ rules: { tools: { get_vm: 'read' } } });
 * classifier.classify('get_vm', {});     // { kind: 'read', rule: 'rules' }
 * classifier.classify('restart_vm', {}); // { kind: 'write', rule: 'default' }
 */
export function createAuditClassifier(options: AuditClassifierOptions = {}): AuditClassifier {
  refuseUnknownOptions(
    'createAuditClassifier',
    options,
    keysOf<AuditClassifierOptions>({ rules: true, nameVerbs: true }),
  );
  const { rules, nameVerbs } = options;
  const declared = new Map<string, ToolDeclaration>();
  const build = () =>
    classifyFromTools([...declared.values()], {
      ...(rules !== undefined && { rules }),
      ...(nameVerbs !== undefined && { nameVerbs }),
    });
  let current: ExplainingClassifier = build();
  let stale = false;
  return {
    declare(tools) {
      for (const t of tools)
        if (!declared.has(t.name)) {
          declared.set(t.name, t);
          stale = true;
        }
    },
    classify(tool, args) {
      if (stale) {
        current = build();
        stale = false;
      }
      const { kind, rule, targets, stateOnly, trust, creates, created, egress, selfVerifying } = current.explain(
        tool,
        args,
      );
      const out: AuditClassification = { kind, rule };
      if (targets !== undefined) out.targets = targets;
      if (stateOnly) out.stateOnly = stateOnly;
      if (trust) out.trust = trust;
      if (creates) out.creates = creates;
      if (created) out.created = created;
      if (egress) out.egress = egress;
      if (selfVerifying) out.selfVerifying = selfVerifying;
      return out;
    },
    discover(tool, result) {
      if (stale) {
        current = build();
        stale = false;
      }
      return current.discover(tool, result);
    },
  };
}
