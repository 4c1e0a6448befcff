import { useEffect, useState } from 'react';
import type { MachineCheck } from '../model/checkMachine.js';
import type { AppMachineKind } from '../../model/machineKindOf.js';
import { startWorkerJob } from '../startWorkerJob.js';

/**
 * Validates and exhaustively checks a machine in a web worker each time it
 * changes; a check still running for an older version is stopped. `check`
 * is the answer for `definition` only (undefined while it runs).
 */
export function useMachineCheck(
  definition: unknown,
  kind: AppMachineKind = 'safety',
): { check?: MachineCheck; checking: boolean; error?: string } {
  const [result, setResult] = useState<{ for?: unknown; check?: MachineCheck; error?: string }>({});
  useEffect(() => {
    if (definition === undefined) return;
    const job = startWorkerJob({ type: 'check', definition, kind });
    job.result.then((r) => {
      if (r.type === 'check') setResult({ for: definition, check: r.check });
      else setResult({ for: definition, error: r.type === 'error' ? r.message : 'unexpected answer' });
    });
    return () => job.cancel();
  }, [definition, kind]);
  const current = result.for === definition;
  return {
    ...(current && result.check && { check: result.check }),
    ...(current && result.error && { error: result.error }),
    checking: definition !== undefined && !current,
  };
}
