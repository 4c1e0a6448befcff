import { createClassifier, type ClassifierRules, type RulesClassifier } from '../harness/classifier.js';

/*
 * The reference product's tool table, as declarative rules. Where the table
 * says "otherwise read" a rule says so explicitly (`default`/`missing`):
 * pulse_alerts and pulse_knowledge read on any other action or none;
 * pulse_docker reads with no action and on its listed read actions, but an
 * action it does not list is a write. Everywhere else an unknown or missing
 * discriminator is a write, and a non-string one always is.
 */
export const pulseRules = {
  tools: {
    pulse_question: 'user_input',

    pulse_query: 'resolve',
    pulse_search_resources: 'resolve',
    pulse_get_resource: 'resolve',
    pulse_get_topology: 'resolve',
    pulse_list_infrastructure: 'resolve',
    pulse_get_connection_health: 'resolve',
    pulse_discovery: { arg: 'action', values: { get: 'resolve' }, default: 'write', missing: 'write' },

    pulse_metrics: 'read',
    pulse_storage: 'read',
    pulse_pmg: 'read',
    fetch_url: 'read',
    patrol_get_findings: 'read',
    pulse_get_docker_logs: 'read',
    pulse_get_performance_metrics: 'read',
    pulse_get_temperatures: 'read',
    pulse_get_baselines: 'read',
    pulse_get_patterns: 'read',
    // Read whatever its action (exec, file, find, tail, logs, none).
    pulse_read: 'read',

    pulse_alerts: { arg: 'action', values: { resolve: 'write', dismiss: 'write' }, default: 'read', missing: 'read' },
    pulse_kubernetes: {
      arg: 'type',
      values: { pods: 'read', scale: 'write', exec: 'write' },
      default: 'write',
      missing: 'write',
    },
    pulse_docker: {
      arg: 'action',
      values: {
        control: 'write',
        update: 'write',
        check_updates: 'write',
        trigger_update: 'write',
        services: 'read',
        tasks: 'read',
        swarm: 'read',
        list: 'read',
      },
      default: 'write',
      missing: 'read',
    },
    // Always write, `read` included: reads go through pulse_read.
    pulse_file_edit: { kind: 'write', selfVerifying: true },
    pulse_knowledge: {
      arg: 'action',
      values: { remember: 'write', note: 'write', save: 'write' },
      default: 'read',
      missing: 'read',
    },

    // The reference's control tools read the result back themselves and say so in
    // `{ verification: { ok } }`: the only tools here whose own result may verify them.
    pulse_control: { kind: 'write', selfVerifying: true },
    pulse_run_command: 'write',
    pulse_control_guest: { kind: 'write', selfVerifying: true },
    pulse_control_docker: { kind: 'write', selfVerifying: true },
    run_command: 'write',
    set_resource_url: 'write',
    // State-only: they write the agent's own findings, not the infrastructure.
    patrol_report_finding: { kind: 'write', stateOnly: true },
    patrol_resolve_finding: { kind: 'write', stateOnly: true },
  },
} as const satisfies ClassifierRules;

/**
 * The reference tool table as a shipped preset; tools not in it fall back to
 * generic verbs, then write.
 *
 * @example
 * pulseClassifier('pulse_alerts', { action: 'dismiss' }); // 'write'
 * pulseClassifier('pulse_kubernetes', { type: 'pods' });  // 'read'
 */
export const pulseClassifier: RulesClassifier = createClassifier(pulseRules);
