import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SIGNAL_THRESHOLDS,
  dedupeSignals,
  detectSignals,
  inputField,
  pulseDetectors,
  truncateEvidence,
  type Detector,
  type Signal,
} from 'assistant-safety/patrol';
import { ago, call, HOUR, NOW } from './fixtures.js';

const T = DEFAULT_SIGNAL_THRESHOLDS;
const detect = (calls: Parameters<typeof detectSignals>[0], thresholds = T) => detectSignals(calls, thresholds, NOW);

describe('detectSignals: SMART health', () => {
  it('should raise one critical reliability signal on the node for a FAILED disk, none for PASSED or OK', () => {
    const signals = detect([
      call(
        'pulse_storage',
        { type: 'disk_health' },
        {
          node: 'pve1',
          disks: [
            { device: '/dev/sda', health: 'PASSED' },
            { device: '/dev/sdb', health: 'FAILED' },
            { device: '/dev/sdc', health: 'OK' },
          ],
        },
      ),
    ]);
    expect(signals).toHaveLength(1);
    expect(signals[0]).toMatchObject({
      type: 'smart_failure',
      severity: 'critical',
      resourceId: 'pve1',
      resourceType: 'node',
      resourceName: '/dev/sdb',
      category: 'reliability',
      summary: 'SMART health check: FAILED for /dev/sdb',
    });
  });

  it('should raise nothing when every disk passed', () => {
    const out = {
      node: 'pve1',
      disks: [
        { device: '/dev/sda', health: 'PASSED' },
        { device: '/dev/sdb', health: 'OK' },
      ],
    };
    expect(detect([call('pulse_storage', { type: 'disk_health' }, out)])).toEqual([]);
  });

  it('should raise a critical signal on the disk id from critical counters even when health passed', () => {
    const [s, ...rest] = detect([
      call(
        'pulse_storage',
        { type: 'disk_health' },
        {
          node: 'pve1',
          disks: [
            {
              id: 'physical-disk-1',
              device: '/dev/sdc',
              health: 'PASSED',
              attributes: { pendingSectors: 2, offlineUncorrectable: 1 },
            },
          ],
        },
      ),
    ]);
    expect(rest).toEqual([]);
    expect(s).toMatchObject({
      resourceId: 'physical-disk-1',
      resourceType: 'disk',
      severity: 'critical',
      summary: 'SMART counters indicate disk risk for /dev/sdc: pending sectors=2, offline uncorrectable=1',
    });
  });

  it('should read host payloads (warning for CRC errors only) and metrics disks (critical for media errors)', () => {
    const signals = detect([
      call(
        'pulse_storage',
        { type: 'disk_health' },
        {
          hosts: [
            {
              hostname: 'pve-host',
              smart: [{ device: '/dev/sda', health: 'PASSED', smart_attributes: { udmaCrcErrors: 4 } }],
            },
          ],
        },
      ),
      call(
        'pulse_metrics',
        { type: 'disks' },
        {
          disks: [{ id: 'disk-nvme', device: '/dev/nvme0n1', node: 'pve2', smartAttributes: { mediaErrors: 3 } }],
        },
      ),
    ]);
    expect(signals.map((s) => [s.resourceId, s.severity])).toEqual([
      ['pve-host', 'warning'],
      ['disk-nvme', 'critical'],
    ]);
    expect(signals[0]!.summary).toBe('SMART counters indicate disk risk for /dev/sda: UDMA CRC errors=4');
  });

  it('should take the first non-null value of a counter across the three attribute spellings', () => {
    const [s] = detect([
      call(
        'pulse_storage',
        { type: 'disk_health' },
        {
          node: 'n',
          disks: [
            {
              id: 'd',
              health: 'FAILED',
              attributes: { reallocatedSectors: null },
              smart_attributes: { reallocatedSectors: 7 },
            },
          ],
        },
      ),
    ]);
    expect(s!.summary).toBe('SMART health check: FAILED for d; counters: reallocated sectors=7');
  });

  it('should deduplicate two FAILED disks without ids on one node into one signal', () => {
    const signals = detect([
      call(
        'pulse_storage',
        { type: 'disk_health' },
        {
          node: 'pve1',
          disks: [
            { device: '/dev/sda', health: 'FAILED' },
            { device: '/dev/sdb', health: 'FAILED' },
          ],
        },
      ),
    ]);
    expect(signals.map((s) => `${s.type}:${s.resourceId}`)).toEqual(['smart_failure:pve1']);
  });
});

describe('detectSignals: storage pools', () => {
  it('should raise a warning and a critical signal for pools over 75 and over 95', () => {
    const signals = detect([
      call(
        'pulse_storage',
        { type: 'pools' },
        {
          pools: [
            { id: 'local-lvm', name: 'local-lvm', usage_percent: 80.5 },
            { id: 'ceph-pool', name: 'ceph-pool', usage_percent: 50 },
            { id: 'backup', name: 'backup', usage_percent: 97 },
          ],
        },
      ),
    ]);
    expect(signals.map((s) => [s.resourceId, s.severity])).toEqual([
      ['local-lvm', 'warning'],
      ['backup', 'critical'],
    ]);
    expect(signals[1]).toMatchObject({
      type: 'high_disk',
      category: 'capacity',
      resourceType: 'storage',
      summary: 'Storage pool backup at 97.0% usage',
    });
  });

  it('should compare strictly: 75.0 nothing, 95.0 warning, 95.1 critical', () => {
    const at = (usage: number) =>
      detect([call('pulse_storage', { type: 'pools' }, { pools: [{ id: 'p', usage_percent: usage }] })]).map(
        (s) => s.severity,
      );
    expect(at(75)).toEqual([]);
    expect(at(95)).toEqual(['warning']);
    expect(at(95.1)).toEqual(['critical']);
  });

  it('should follow custom storage thresholds: 80.5 % fires at 75, not at 90', () => {
    const c = [call('pulse_storage', { type: 'pools' }, { pools: [{ id: 'p', usage_percent: 80.5 }] })];
    expect(detect(c)).toHaveLength(1);
    expect(detect(c, { ...T, storageWarning: 90, storageCritical: 95 })).toHaveLength(0);
  });
});

describe('detectSignals: CPU and memory', () => {
  it('should raise high_cpu for the resource over 70 and not the other', () => {
    const signals = detect([
      call(
        'pulse_metrics',
        { type: 'performance' },
        {
          resources: [
            { id: 'node1', name: 'node1', type: 'node', avg_cpu: 85.5, avg_memory: 40 },
            { id: 'node2', name: 'node2', type: 'node', avg_cpu: 30, avg_memory: 50 },
          ],
        },
      ),
    ]);
    expect(signals).toHaveLength(1);
    expect(signals[0]).toMatchObject({
      type: 'high_cpu',
      resourceId: 'node1',
      severity: 'warning',
      category: 'performance',
      summary: 'High CPU usage on node1: 85.5%',
    });
  });

  it('should read a flat single resource', () => {
    const signals = detect([call('pulse_metrics', { type: 'performance' }, { id: 'vm100', avg_memory: 92.3 })]);
    expect(signals.map((s) => [s.type, s.resourceId, s.summary])).toEqual([
      ['high_memory', 'vm100', 'High memory usage on vm100: 92.3%'],
    ]);
  });

  it('should fall back to cpu_percent and mem_percent when the averages are 0', () => {
    const signals = detect([
      call('pulse_metrics', { type: 'performance' }, { id: 'vm1', avg_cpu: 0, cpu_percent: 75, mem_percent: 85 }),
    ]);
    expect(signals.map((s) => s.type)).toEqual(['high_cpu', 'high_memory']);
  });

  it('should ignore metrics of another type', () => {
    expect(detect([call('pulse_metrics', { type: 'temperature' }, { id: 'vm1', avg_cpu: 99 })])).toEqual([]);
  });

  it('should follow a custom CPU threshold: 55 % fires at 50, not at the default 70', () => {
    const c = [call('pulse_metrics', { type: 'performance' }, { id: 'vm1', avg_cpu: 55 })];
    expect(detect(c)).toHaveLength(0);
    expect(detect(c, { ...T, highCpu: 50 })).toHaveLength(1);
  });
});

describe('detectSignals: backups', () => {
  it('should raise backup_failed for the failed task only', () => {
    const signals = detect([
      call(
        'pulse_storage',
        { type: 'backup_tasks' },
        {
          tasks: [
            { vmid: '100', status: 'OK', end_time: ago(0) },
            { vmid: '101', status: 'ERROR: backup failed', end_time: ago(0) },
          ],
        },
      ),
    ]);
    expect(signals).toHaveLength(1);
    expect(signals[0]).toMatchObject({
      type: 'backup_failed',
      resourceId: '101',
      severity: 'warning',
      category: 'backup',
      summary: 'Backup task failed: ERROR: backup failed',
    });
  });

  it('should judge only the latest task of a guest: an error then a success is no signal', () => {
    const out = {
      tasks: [
        { vmid: 100, status: 'ERROR', end_time: ago(2 * HOUR) },
        { vmid: 100, status: 'OK', end_time: ago(HOUR) },
      ],
    };
    expect(detect([call('pulse_storage', { type: 'backup_tasks' }, out)])).toEqual([]);
  });

  it('should never call a task-only backup listing stale, even 72 hours old', () => {
    const out = { tasks: [{ vmid: '100', status: 'OK', end_time: ago(72 * HOUR) }] };
    expect(detect([call('pulse_storage', { type: 'backup_tasks' }, out)])).toEqual([]);
  });

  it('should let an error field win over a running status', () => {
    const out = { tasks: [{ vmid: '102', status: 'running', error: 'timeout', start_time: ago(0) }] };
    expect(detect([call('pulse_storage', { type: 'backup_tasks' }, out)]).map((s) => s.resourceId)).toEqual(['102']);
  });

  it('should raise backup_failed from a failed recent task of a backups summary, and nothing once it later succeeded', () => {
    const failed = { recent_tasks: [{ vmid: 106, status: 'error', start_time: ago(HOUR) }] };
    expect(detect([call('pulse_storage', { type: 'backups' }, failed)]).map((s) => [s.type, s.resourceId])).toEqual([
      ['backup_failed', '106'],
    ]);
    const recovered = {
      recent_tasks: [
        { vmid: 106, status: 'error', start_time: ago(2 * HOUR) },
        { vmid: 106, status: 'OK', start_time: ago(HOUR) },
      ],
    };
    expect(detect([call('pulse_storage', { type: 'backups' }, recovered)])).toEqual([]);
  });

  it('should call backups older than 48 hours stale for guests with recent tasks, and not without them', () => {
    const out = {
      pbs: [{ vmid: '200', backup_time: ago(96 * HOUR) }],
      pve: [{ vmid: 201, backup_time: ago(96 * HOUR) }],
      recent_tasks: [
        { vmid: 200, status: 'OK', start_time: ago(0) },
        { vmid: 201, status: 'OK', start_time: ago(0) },
      ],
    };
    const signals = detect([call('pulse_storage', { type: 'backups' }, out)]);
    expect(signals.map((s) => [s.type, s.resourceId])).toEqual([
      ['backup_stale', '200'],
      ['backup_stale', '201'],
    ]);
    expect(signals[0]!.summary).toBe('No backup completed in 48+ hours for VM/CT 200');
    const { recent_tasks: _, ...withoutTasks } = out;
    expect(detect([call('pulse_storage', { type: 'backups' }, withoutTasks)])).toEqual([]);
  });
});

describe('detectSignals: what is not read', () => {
  const failedDisk = { node: 'pve1', disks: [{ device: '/dev/sda', health: 'FAILED' }] };

  it('should not mirror alerts: the alerts tool is never parsed', () => {
    const out = {
      alerts: [{ resource: 'pve1', level: 'critical', pools: [{ id: 'p', usage_percent: 99 }] }],
      ...failedDisk,
    };
    expect(detect([call('pulse_alerts', { action: 'list' }, out)])).toEqual([]);
    expect(detect([call('pulse_alerts', { action: 'acknowledge' }, out)])).toEqual([]);
  });

  it('should skip a failed call', () => {
    expect(detect([call('pulse_storage', { type: 'disk_health' }, failedDisk, false)])).toEqual([]);
  });

  it.each([
    ['empty', ''],
    ['a no-data message', 'No storage data available'],
    ['the state provider message', 'State provider not available'],
    ['malformed JSON', 'not valid json at all'],
    ['truncated JSON', '{"disks":[{"device":"/dev/sda","health":"FAIL'],
  ])('should skip %s output', (_, output) => {
    expect(detect([call('pulse_storage', { type: 'disk_health' }, output)])).toEqual([]);
  });

  it('should find the JSON object inside surrounding text', () => {
    const output = 'Some text before {"node":"pve1","disks":[{"device":"/dev/sda","health":"FAILED"}]} some text after';
    expect(detect([call('pulse_storage', { type: 'disk_health' }, output)])).toHaveLength(1);
  });

  it('should run every storage detector when the input has no type, and none for an unknown type', () => {
    const out = { ...failedDisk, pools: [{ id: 'p', usage_percent: 99 }] };
    expect(detect([call('pulse_storage', {}, out)]).map((s) => s.type)).toEqual(['smart_failure', 'high_disk']);
    expect(detect([call('pulse_storage', { type: 'snapshots' }, out)])).toEqual([]);
  });

  it('should read the input type from an object or JSON text', () => {
    expect(inputField({ type: 'pools' }, 'type')).toBe('pools');
    expect(inputField('{"type":"pools"}', 'type')).toBe('pools');
    expect(inputField('not json', 'type')).toBe('');
    expect(inputField({ type: 3 }, 'type')).toBe('');
  });
});

describe('signal evidence, dedup and your own detectors', () => {
  it('should cut evidence to 500 characters', () => {
    expect(truncateEvidence('x'.repeat(600))).toHaveLength(500);
    const long = JSON.stringify({ pools: [{ id: 'p', usage_percent: 99 }], pad: 'y'.repeat(800) });
    expect(detect([call('pulse_storage', { type: 'pools' }, long)])[0]!.evidence).toHaveLength(500);
  });

  it('should keep the first of signals with the same type and resource, and signals of different types', () => {
    const s = (type: string, resourceId: string, summary = ''): Signal => ({
      type,
      resourceId,
      resourceName: resourceId,
      resourceType: 'node',
      severity: 'warning',
      category: 'performance',
      summary,
      evidence: '',
    });
    const deduped = dedupeSignals([
      s('high_cpu', 'n1', 'first'),
      s('high_cpu', 'n1', 'second'),
      s('smart_failure', 'n1'),
      s('high_cpu', 'n2'),
    ]);
    expect(deduped.map((x) => [x.type, x.resourceId, x.summary])).toEqual([
      ['high_cpu', 'n1', 'first'],
      ['smart_failure', 'n1', ''],
      ['high_cpu', 'n2', ''],
    ]);
  });

  it('should run a detector you register beside the preset', () => {
    const queueDepth: Detector = (c) => {
      if (c.tool !== 'queue_stats') return [];
      const depth = (JSON.parse(c.output) as { depth: number }).depth;
      return depth > 1000
        ? [
            {
              type: 'queue_backlog',
              resourceId: 'queue/orders',
              resourceName: 'orders',
              resourceType: 'queue',
              severity: 'warning',
              category: 'performance',
              summary: `Queue orders holds ${depth} messages`,
              evidence: c.output,
              toolCallId: c.id,
            },
          ]
        : [];
    };
    const calls = [
      call('queue_stats', {}, { depth: 5000 }),
      call('pulse_storage', { type: 'pools' }, { pools: [{ id: 'p', usage_percent: 99 }] }),
    ];
    expect(detectSignals(calls, T, NOW, [...pulseDetectors, queueDepth]).map((s) => s.type)).toEqual([
      'queue_backlog',
      'high_disk',
    ]);
    expect(detectSignals(calls, T, NOW, [queueDepth]).map((s) => s.type)).toEqual(['queue_backlog']);
  });
});
