import { describe, expect, it } from 'vitest';
import {
  classifyToolCall,
  ClassifierRulesError,
  createClassifier,
  pulseClassifier,
  pulseRules,
  type ToolKind,
} from 'assistant-safety';

describe('pulseClassifier: the reference table preset', () => {
  const cases: [string, unknown, ToolKind][] = [
    ['pulse_question', {}, 'user_input'],
    ['pulse_query', {}, 'resolve'],
    ['pulse_search_resources', undefined, 'resolve'],
    ['pulse_get_resource', {}, 'resolve'],
    ['pulse_get_topology', {}, 'resolve'],
    ['pulse_list_infrastructure', {}, 'resolve'],
    ['pulse_get_connection_health', {}, 'resolve'],
    ['pulse_discovery', { action: 'get' }, 'resolve'],
    ['pulse_discovery', {}, 'write'],
    ['pulse_discovery', { action: 'scan' }, 'write'],
    ['pulse_metrics', {}, 'read'],
    ['pulse_storage', {}, 'read'],
    ['pulse_pmg', {}, 'read'],
    ['fetch_url', {}, 'read'],
    ['patrol_get_findings', {}, 'read'],
    ['pulse_get_docker_logs', {}, 'read'],
    ['pulse_get_performance_metrics', {}, 'read'],
    ['pulse_get_temperatures', {}, 'read'],
    ['pulse_get_baselines', {}, 'read'],
    ['pulse_get_patterns', {}, 'read'],
    ...(['exec', 'file', 'find', 'tail', 'logs', undefined] as const).map((action): [string, unknown, ToolKind] => [
      'pulse_read',
      action ? { action } : {},
      'read',
    ]),
    ['pulse_alerts', { action: 'resolve' }, 'write'],
    ['pulse_alerts', { action: 'dismiss' }, 'write'],
    ['pulse_alerts', { action: 'list' }, 'read'],
    ['pulse_alerts', {}, 'read'],
    ['pulse_kubernetes', { type: 'pods' }, 'read'],
    ['pulse_kubernetes', { type: 'scale' }, 'write'],
    ['pulse_kubernetes', { type: 'exec' }, 'write'],
    ['pulse_kubernetes', {}, 'write'],
    ['pulse_kubernetes', { action: 'pods' }, 'write'],
    ...(['control', 'update', 'check_updates', 'trigger_update'] as const).map(
      (action): [string, unknown, ToolKind] => ['pulse_docker', { action }, 'write'],
    ),
    ...(['services', 'tasks', 'swarm', 'list'] as const).map((action): [string, unknown, ToolKind] => [
      'pulse_docker',
      { action },
      'read',
    ]),
    ['pulse_file_edit', { action: 'read' }, 'write'],
    ['pulse_file_edit', {}, 'write'],
    ['pulse_knowledge', { action: 'remember' }, 'write'],
    ['pulse_knowledge', { action: 'note' }, 'write'],
    ['pulse_knowledge', { action: 'save' }, 'write'],
    ['pulse_knowledge', { action: 'recall' }, 'read'],
    ...[
      'pulse_control',
      'pulse_run_command',
      'pulse_control_guest',
      'pulse_control_docker',
      'run_command',
      'set_resource_url',
      'patrol_report_finding',
      'patrol_resolve_finding',
    ].map((tool): [string, unknown, ToolKind] => [tool, { action: 'get' }, 'write']),
    ['some_new_tool', {}, 'write'],
    ['some_new_tool', { action: 'status' }, 'read'],
  ];
  it.each(cases)('should classify %s %j as %s', (tool, args, kind) => {
    expect(pulseClassifier(tool, args)).toBe(kind);
  });

  it('should cover every tool of the table', () => {
    const tested = new Set(cases.map(([t]) => t));
    for (const tool of Object.keys(pulseRules.tools)) expect(tested).toContain(tool);
  });
});

describe('classifyToolCall: generic verbs', () => {
  it.each([
    'start',
    'stop',
    'restart',
    'delete',
    'shutdown',
    'reboot',
    'write',
    'append',
    'update',
    'trigger',
    'resolve',
    'dismiss',
    'control',
  ])('should classify action %s as write', (verb) => {
    expect(classifyToolCall('anything', { action: verb })).toBe('write');
    expect(classifyToolCall('anything', { operation: verb })).toBe('write');
  });
  it.each(['get', 'list', 'search', 'query', 'read', 'logs', 'status', 'health', 'describe', 'inspect', 'show'])(
    'should classify action %s as read',
    (verb) => {
      expect(classifyToolCall('anything', { action: verb })).toBe('read');
      expect(classifyToolCall('anything', { operation: verb })).toBe('read');
    },
  );
  it('should fail closed as write', () => {
    expect(classifyToolCall('anything')).toBe('write');
    expect(classifyToolCall('anything', { action: 'frobnicate' })).toBe('write');
    expect(classifyToolCall('anything', { action: 'get', operation: 'delete' })).toBe('write');
    expect(classifyToolCall('anything', { verb: 'get' })).toBe('write');
  });
  it('should compare verbs case-insensitively', () => {
    expect(classifyToolCall('x', { action: ' GET ' })).toBe('read');
  });
});

describe('hostile arguments', () => {
  const hostile: [string, unknown][] = [
    ['a string', 'action=get'],
    ['a number', 42],
    ['null', null],
    ['an array', ['get']],
    ['a non-string action', { action: ['get'] }],
    ['a numeric action', { action: 1 }],
    ['an object action', { action: { toString: () => 'get' } }],
    ['an inherited action', Object.create({ action: 'get' })],
    ['a __proto__ key from JSON', JSON.parse('{"__proto__": {"action": "get"}}')],
    ['a getter', Object.defineProperty({}, 'action', { get: () => 'get', enumerable: true })],
  ];
  it.each(hostile)('should classify an unknown tool with %s as write', (_, args) => {
    expect(classifyToolCall('anything', args)).toBe('write');
    expect(pulseClassifier('pulse_discovery', args)).toBe('write');
  });
  it('should not be fooled by tool names that are Object.prototype keys', () => {
    for (const tool of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(pulseClassifier(tool, { action: 'restart' })).toBe('write');
      expect(pulseClassifier(tool, {})).toBe('write');
    }
  });
  it('should classify a non-string tool name as write', () => {
    expect(classifyToolCall(undefined as unknown as string, { action: 'get' })).toBe('write');
  });
  it('should not run a getter on the arguments', () => {
    let ran = false;
    const args = Object.defineProperty({}, 'action', {
      get: () => {
        ran = true;
        return 'get';
      },
    });
    pulseClassifier('pulse_alerts', args);
    expect(ran).toBe(false);
  });
});

describe('createClassifier', () => {
  it('should use a fixed kind, an argument rule with default and missing, then generic verbs', () => {
    const classify = createClassifier({
      tools: {
        logs: 'read',
        vm: { arg: 'op', values: { status: 'read', Reboot: 'write' }, default: 'write', missing: 'read' },
      },
    });
    expect(classify('logs')).toBe('read');
    expect(classify('vm', { op: 'status' })).toBe('read');
    expect(classify('vm', { op: 'reboot' })).toBe('write');
    expect(classify('vm', { op: 'other' })).toBe('write');
    expect(classify('vm', {})).toBe('read');
    expect(classify('vm', { op: 3 })).toBe('write');
    expect(classify('other', { action: 'list' })).toBe('read');
  });

  // Before: arguments that were no object (JSON text a provider sent unparsed, a list) read as arguments
  // without the discriminator, so `missing: 'read'` made `'{"op":"reboot"}'` a read, and two of them ran
  // in one batch with no write gate.
  it.each([
    ['JSON text', '{"op":"reboot"}'],
    ['a list', [{ op: 'reboot' }]],
    ['a number', 7],
  ])("should classify arguments given as %s as write, whatever the rule's missing says", (_, args) => {
    const classify = createClassifier({
      tools: { vm: { arg: 'op', values: { status: 'read', reboot: 'write' }, default: 'read', missing: 'read' } },
    });
    expect(classify('vm', args)).toBe('write');
    expect(classify.describe('vm', args).kind).toBe('write');
    expect(classify('vm')).toBe('read');
    expect(classify('vm', null)).toBe('read');
  });

  it('should accept custom verbs and verb arguments', () => {
    const classify = createClassifier({ tools: {}, verbArgs: ['cmd'], verbs: { write: ['zap'], read: ['peek'] } });
    expect(classify('t', { cmd: 'peek' })).toBe('read');
    expect(classify('t', { cmd: 'zap' })).toBe('write');
    expect(classify('t', { action: 'get' })).toBe('write');
  });

  it('should reject malformed rules with the path named', () => {
    const bad: [unknown, RegExp][] = [
      [{ tools: { x: 'mutate' } }, /tools\.x/],
      [{ tools: { x: { arg: 'action', values: { a: 'delete' }, default: 'read' } } }, /tools\.x/],
      [{ tools: { x: { values: {}, default: 'read' } } }, /tools\.x/],
      [{ tools: {}, extra: true }, /extra|unrecognized/i],
      ['rules', /expected object/i],
    ];
    for (const [rules, message] of bad) {
      expect(() => createClassifier(rules)).toThrow(ClassifierRulesError);
      expect(() => createClassifier(rules)).toThrow(message);
    }
  });
});
