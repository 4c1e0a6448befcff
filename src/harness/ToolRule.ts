import * as z from 'zod/mini';
import { ToolKind } from '../safety/toolKind.js';
import { ResultDiscovery } from './discoveredTargets.js';

/*
 * A rule for one tool: its kind, fixed or by an argument, and the facts a rule may state about
 * it. Apart from the classifier so the rule checks (ruleFacts.ts) read the type without the
 * classifier that runs them.
 */

const argPaths = () => z.optional(z.array(z.string().check(z.minLength(1))).check(z.minLength(1)));

/**
 * What a rule may say about a tool besides its kind: where its targets are in the arguments,
 * whether its output is open-world content, whether it only writes the agent's own records,
 * whether its own result may verify it, and its provenance: what its result reveals, what it
 * creates, whether it sends data out.
 */
const toolFacts = {
  /** Argument paths (dot-separated: `vm.id`) whose values are the resource keys the call touches; arrays expand. */
  targets: argPaths(),
  /** Put before each target found (and each `created` value): `iban:`, `file:`. */
  prefix: z.optional(z.string()),
  /**
   * A write whose target arguments are all absent carries no targets (instead of `?missing:<tool>@<digest>`,
   * which nothing validates): binding then judges it by kind alone. Given arguments bind as ever.
   */
  optionalTargets: z.optional(z.boolean()),
  /** Read or resolve: result fields whose values its system of record assigns (`files.id`); see `discover`. */
  discovers: z.optional(z.array(ResultDiscovery).check(z.minLength(1))),
  /** Write: it creates the resource it acts on; what it creates needs no prior validation. */
  creates: z.optional(z.boolean()),
  /** With `creates`: argument paths whose values (with `prefix`) are the keys of what it creates. */
  created: argPaths(),
  /** Read: it sends its arguments somewhere (a URL, a host); its `targets` are the destinations. */
  egress: z.optional(z.boolean()),
  /** `untrusted`: its output is open-world content (web, mail, chat): what it reveals never validates a target. */
  trust: z.optional(z.enum(['trusted', 'untrusted'])),
  /** A write to the agent's own records (a finding report, a to-do list): it needs no verification. */
  stateOnly: z.optional(z.boolean()),
  /** Its own result may verify it (`{ "verification": { "ok": true } }`). Only such tools self-verify. */
  selfVerifying: z.optional(z.boolean()),
};

/** A tool with a fixed kind, and what else a rule may say about it. */
export const FixedRule = z.strictObject({ kind: ToolKind, ...toolFacts });
export type FixedRule = z.infer<typeof FixedRule>;

/** A tool whose kind depends on one argument: a kind per value, a default, and what a missing argument means. */
export const ArgumentRule = z.strictObject({
  /** The discriminating argument, e.g. `action`, `type`, `operation`. */
  arg: z.string().check(z.minLength(1)),
  /** Kind per value (compared trimmed, NFKC-normalised and case-folded; see {@link normaliseValue}). */
  values: z.record(z.string(), ToolKind),
  /** Kind of a string value not listed in `values`. */
  default: ToolKind,
  /** Kind when the argument is absent. Default `write`: fail closed. */
  missing: z.optional(ToolKind),
  ...toolFacts,
});
export type ArgumentRule = z.infer<typeof ArgumentRule>;

/** Per tool: a kind, a fixed-kind rule with facts, or an argument rule. */
export const ToolRule = z.union([ToolKind, FixedRule, ArgumentRule]);
export type ToolRule = z.infer<typeof ToolRule>;
