import type { ToolCall } from '../src/index.js';

/*
 * Simulated infrastructure for the demo agent: a few hosts and containers
 * and the tools a monitoring assistant would have over them, named like the
 * reference product's (pulse_query, pulse_read, pulse_control, ...). No
 * network, no model: every answer comes from this in-memory state.
 */

export interface Resource {
  id: string;
  type: 'vm' | 'container';
  host?: string;
  status: 'running' | 'stopped' | 'restarting' | 'unhealthy';
  logs: string[];
  diskUsedPct?: number;
  config?: Record<string, string>;
}

/** A tool failure with a stable snake_case code, like the reference tools' (`resource_not_found`, ...). */
export class ToolFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ToolFailure';
  }
}

export interface DemoInfrastructure {
  readonly resources: Map<string, Resource>;
  /** Runs one tool call against the simulated state. */
  run(call: ToolCall, signal: AbortSignal): Promise<unknown>;
}

function initialResources(): Resource[] {
  return [
    {
      id: 'web-01',
      type: 'vm',
      status: 'running',
      logs: ['nginx: upstream timed out (110) while reading response header'],
      diskUsedPct: 41,
    },
    { id: 'web-02', type: 'vm', status: 'running', logs: ['nginx: ready'], diskUsedPct: 38 },
    {
      id: 'nginx@web-01',
      type: 'container',
      host: 'web-01',
      status: 'unhealthy',
      logs: ['502 Bad Gateway x 214 in the last 5 minutes'],
      config: { worker_connections: '512' },
    },
    { id: 'redis@web-01', type: 'container', host: 'web-01', status: 'running', logs: ['Ready to accept connections'] },
    { id: 'db-01', type: 'vm', status: 'running', logs: ['checkpoint complete'], diskUsedPct: 97 },
    {
      id: 'backup@db-01',
      type: 'container',
      host: 'db-01',
      status: 'running',
      logs: ['retaining 42 daily archives (policy: 7)'],
    },
    { id: 'batch-07', type: 'vm', status: 'unhealthy', logs: ['kernel: task blocked for more than 120 seconds'] },
  ];
}

const str = (args: unknown, key: string): string | undefined => {
  const v = (args as Record<string, unknown> | undefined)?.[key];
  return typeof v === 'string' ? v : undefined;
};

/** A fresh simulated infrastructure. A `hang` target never answers until the call's signal aborts. */
export function createDemoInfrastructure(): DemoInfrastructure {
  const resources = new Map(initialResources().map((r) => [r.id, r]));

  const find = (id: string | undefined): Resource => {
    const resource = id === undefined ? undefined : resources.get(id);
    if (!resource) throw new ToolFailure('resource_not_found', `no resource named ${JSON.stringify(id ?? '')}`);
    return resource;
  };
  const summary = (r: Resource) => ({ id: r.id, type: r.type, status: r.status, ...(r.host && { host: r.host }) });
  const search = (query: string | undefined) => {
    const q = (query ?? '').toLowerCase();
    return { resources: [...resources.values()].filter((r) => r.id.toLowerCase().includes(q)).map(summary) };
  };
  const hang = (signal: AbortSignal) =>
    new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));

  const tools: Record<string, (args: unknown, signal: AbortSignal) => unknown> = {
    pulse_query: (args) => search(str(args, 'query')),
    pulse_search_resources: (args) => search(str(args, 'query')),
    pulse_list_infrastructure: () => ({ resources: [...resources.values()].map(summary) }),
    pulse_get_resource: (args) => summary(find(str(args, 'id'))),
    pulse_read: (args) => {
      const r = find(str(args, 'target'));
      const action = str(args, 'action') ?? 'logs';
      if (action === 'status') return { id: r.id, status: r.status };
      return { id: r.id, status: r.status, lines: r.logs.slice(-5) };
    },
    pulse_get_docker_logs: (args) => ({
      container: find(str(args, 'container')).id,
      lines: find(str(args, 'container')).logs,
    }),
    pulse_storage: (args) => {
      const r = find(str(args, 'target'));
      return { id: r.id, diskUsedPct: r.diskUsedPct ?? null };
    },
    pulse_metrics: (args) => {
      const r = find(str(args, 'target'));
      return { id: r.id, cpuPct: r.status === 'unhealthy' ? 97 : 23, memPct: 61 };
    },
    pulse_control: (args, signal) => {
      const r = find(str(args, 'target'));
      const action = str(args, 'action');
      // A wedged VM: the hypervisor never answers a restart.
      if (r.id === 'batch-07' && (action === 'restart' || action === 'start')) return hang(signal);
      if (action === 'restart' || action === 'start') {
        r.status = 'running';
        r.logs.push(`${action}ed by assistant; healthy`);
      } else if (action === 'stop') {
        r.status = 'stopped';
        r.logs.push('stopped by assistant');
      } else {
        throw new ToolFailure('invalid_action_request', `unknown action ${JSON.stringify(action ?? '')}`);
      }
      return { id: r.id, action, accepted: true };
    },
    pulse_docker: (args) => {
      const r = find(str(args, 'container'));
      if (str(args, 'action') === 'control') {
        r.status = str(args, 'operation') === 'stop' ? 'stopped' : 'running';
        r.logs.push(`${str(args, 'operation') ?? 'control'} by assistant`);
        return { id: r.id, accepted: true };
      }
      return summary(r);
    },
    pulse_run_command: (args) => {
      const r = find(str(args, 'target'));
      const command = str(args, 'command') ?? '';
      if (command.includes('prune') && r.diskUsedPct !== undefined) r.diskUsedPct = 58;
      return { id: r.id, command, exitCode: 0 };
    },
    pulse_file_edit: (args) => {
      const r = find(str(args, 'target'));
      const key = str(args, 'key') ?? '';
      const value = str(args, 'value') ?? '';
      r.config = { ...r.config, [key]: value };
      // The tool reads the file back and says so: the write carries its own verification.
      return { id: r.id, written: `${key}=${value}`, verification: { ok: true, readBack: `${key}=${value}` } };
    },
  };

  return {
    resources,
    async run(call, signal) {
      const tool = tools[call.name];
      if (!tool) throw new ToolFailure('capability_not_found', `no tool named ${call.name}`);
      return tool(call.args, signal);
    },
  };
}
