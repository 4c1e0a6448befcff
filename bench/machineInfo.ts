import { cpus, loadavg, totalmem, type as osType, release, arch } from 'node:os';

/** The machine a run was measured on. */
export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGB: number;
  node: string;
  os: string;
  /** One-minute load average when the run started (a noisy machine shows here). */
  loadAverage: number;
  date: string;
}

/** Describes this machine and the time now. */
export function machineInfo(): MachineInfo {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memoryGB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: `${osType()} ${release()} ${arch()}`,
    loadAverage: Math.round(loadavg()[0]! * 100) / 100,
    date: new Date().toISOString(),
  };
}

/** One line: `AMD EPYC, 2 cores, 23.5 GB, node v20.20.2, Linux 6.1 x64, 2026-12-02T13:00:00Z`. */
export function machineLine(m: MachineInfo): string {
  return `${m.cpu}, ${m.cores} cores, ${m.memoryGB} GB, node ${m.node}, ${m.os}, load ${m.loadAverage}, ${m.date}`;
}
