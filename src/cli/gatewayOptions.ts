import { ANNOTATION_TRUST, type AnnotationTrust } from '../mcp/annotationTrust.js';
import type { BlockReasonCode } from '../safety/toolKind.js';
import { askProblem, blockReasonProblem } from '../safety/blockReasons.js';
import { MAX_TIMER_MS } from '../core/timerDelay.js';
import { MAX_ORPHAN_AFTER_MS, MIN_ORPHAN_AFTER_MS, type RedisDurability } from '../redis/options.js';
import type { RedisTarget } from '../redis/cliSupport.js';
import { UsageError } from './Command.js';
import { wholeNumberOption } from './numberOptions.js';
import { REDIS_TARGET_OPTIONS, redisDurabilityOf, redisFlagOf, redisTargetOf } from './redisTarget.js';
import { liveOptionOf, type LiveOption } from './tokenEnv.js';

/*
 * The options `mcp-gateway` takes that `mcp-config` passes on to it, read and checked in one
 * place: an entry the gateway would refuse would stop the server at every start of the client,
 * so `mcp-config` refuses it with the gateway's own words.
 */

/** The parseArgs table of the gateway's options that `mcp-config` passes on (each command adds its own). */
export const GATEWAY_OPTIONS = {
  rules: { type: 'string' },
  'name-verbs': { type: 'boolean' },
  'trust-annotations': { type: 'string' },
  'cancel-grace-ms': { type: 'string' },
  targets: { type: 'string' },
  shadow: { type: 'boolean' },
  escalate: { type: 'string' },
  'server-command': { type: 'string' },
  'server-arg': { type: 'string', multiple: true },
  record: { type: 'string' },
  live: { type: 'string' },
  ...REDIS_TARGET_OPTIONS,
  session: { type: 'string' },
  'redis-prefix': { type: 'string' },
  'orphan-after-ms': { type: 'string' },
} as const;

/** The options of {@link GATEWAY_OPTIONS} that take a number (a negative one is read as their value, to be refused). */
export const GATEWAY_NUMBER_FLAGS = ['--cancel-grace-ms', '--orphan-after-ms'];

/** What parseArgs reads with {@link GATEWAY_OPTIONS} (and `--listen`, which only the gateway takes). */
export interface GatewayOptionValues {
  'trust-annotations'?: string | undefined;
  'cancel-grace-ms'?: string | undefined;
  targets?: string | undefined;
  shadow?: boolean | undefined;
  escalate?: string | undefined;
  record?: string | undefined;
  live?: string | undefined;
  listen?: string | undefined;
  redis?: string | undefined;
  'redis-cluster'?: string | undefined;
  'redis-durability'?: string | undefined;
  session?: string | undefined;
  'redis-prefix'?: string | undefined;
  'orphan-after-ms'?: string | undefined;
}

/** The gateway's options, checked; each undefined when not given. */
export interface CheckedGatewayOptions {
  trustAnnotations?: AnnotationTrust | undefined;
  cancelGraceMs?: number | undefined;
  targets?: 'ignore' | 'bind' | undefined;
  shadow: boolean;
  escalate?: BlockReasonCode[] | undefined;
  /** `--live URL`, its token from the URL or from the environment (ASSISTANT_SAFETY_LIVE_TOKEN). */
  live?: LiveOption | undefined;
  /** The session kept in Redis (`--redis URL --session ID`, or `--redis-cluster URL,... --session ID`). */
  redis?: {
    target: RedisTarget;
    session: string;
    keyPrefix?: string | undefined;
    orphanAfterMs?: number | undefined;
    /** `--redis-durability`: how far a save must have gone before the call goes on (default primary). */
    durability?: RedisDurability | undefined;
  };
}

/**
 * Checks the gateway's options (the rules file, which is read, and the server are the caller's):
 * throws a usage error naming the first one that is wrong, as `mcp-gateway` says it. The live
 * token may come from `env` (ASSISTANT_SAFETY_LIVE_TOKEN).
 *
 * @example
 * gatewayOptionsOf({ redis: 'redis://127.0.0.1:6379' });
 * // throws '--redis needs --session ID: the session the gateway keeps in Redis'
 */
export function gatewayOptionsOf(
  values: GatewayOptionValues,
  env: NodeJS.ProcessEnv = process.env,
): CheckedGatewayOptions {
  const trustAnnotations =
    values['trust-annotations'] === undefined ? undefined : annotationTrustOf(values['trust-annotations']);
  const cancelGraceMs = wholeNumberOption(values['cancel-grace-ms'], '--cancel-grace-ms', 0, MAX_TIMER_MS);
  const targets = values.targets;
  if (targets !== undefined && targets !== 'ignore' && targets !== 'bind')
    throw new UsageError(`--targets: expected ignore or bind, got "${targets}"`);
  const escalate = values.escalate === undefined ? undefined : escalateOf(values.escalate);
  let live: LiveOption | undefined;
  if (values.live !== undefined) {
    const checked = liveOptionOf(values.live, env);
    if ('problem' in checked) throw new UsageError(`--live: ${checked.problem}`);
    live = checked;
  }
  let redis: CheckedGatewayOptions['redis'];
  const target = redisTargetOf(values);
  const durability = redisDurabilityOf(values, target);
  if (target !== undefined) {
    const given = redisFlagOf(target);
    if (values.session === undefined || values.session.length === 0)
      throw new UsageError(`${given} needs --session ID: the session the gateway keeps in Redis`);
    for (const flag of ['listen', 'record', 'live'] as const)
      if (values[flag] !== undefined) throw new UsageError(`--${flag} does not go with ${given}`);
    const orphanAfterMs = wholeNumberOption(
      values['orphan-after-ms'],
      '--orphan-after-ms',
      MIN_ORPHAN_AFTER_MS,
      MAX_ORPHAN_AFTER_MS,
    );
    redis = { target, session: values.session, keyPrefix: values['redis-prefix'], orphanAfterMs, durability };
  } else {
    for (const flag of ['session', 'redis-prefix', 'orphan-after-ms'] as const)
      if (values[flag] !== undefined) throw new UsageError(`--${flag} goes with --redis or --redis-cluster`);
  }
  return {
    trustAnnotations,
    cancelGraceMs,
    targets,
    shadow: values.shadow === true,
    escalate,
    live,
    redis,
  };
}

/** `--trust-annotations`, checked. */
export function annotationTrustOf(value: string | undefined): AnnotationTrust {
  if (value === undefined) return 'all';
  if (!(ANNOTATION_TRUST as readonly string[]).includes(value))
    throw new UsageError(`--trust-annotations: expected one of ${ANNOTATION_TRUST.join(', ')}, got "${value}"`);
  return value as AnnotationTrust;
}

/** `--escalate CODE,...`, checked against the block reason codes a person can be asked about. */
function escalateOf(value: string): BlockReasonCode[] {
  const codes = value
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  for (const code of codes) {
    const problem = blockReasonProblem(code) ?? askProblem(code as BlockReasonCode);
    if (problem !== undefined) throw new UsageError(`--escalate: ${problem}`);
  }
  return codes as BlockReasonCode[];
}
