import { useEffect, useState } from 'react';
import { createSafetyMachine, type SafetyMachine } from 'assistant-safety';
import { safeParseMachineDefinition, type MachineDefinition } from 'assistant-safety';
import { MachineList } from 'assistant-safety/live';
import { safetyMachineDefinition } from 'assistant-safety';
import { apiFetch } from '../model/api.js';
import { buildGraphModel, type GraphModel } from '../model/graphModel.js';

/** One machine of `machines/`, ready to draw and to replay against, or why it cannot be. */
export type LoadedMachine =
  | { file: string; ok: true; definition: MachineDefinition; machine: SafetyMachine; graph: GraphModel }
  | { file: string; ok: false; error: string };

/** Validates and builds one machine JSON with the core's own schema and registries. */
function loadMachine(file: string, json: unknown): LoadedMachine {
  const parsed = safeParseMachineDefinition(json);
  if (!parsed.success) return { file, ok: false, error: parsed.error.message };
  return {
    file,
    ok: true,
    definition: parsed.data,
    machine: createSafetyMachine(parsed.data),
    graph: buildGraphModel(parsed.data),
  };
}

const bundled = (): LoadedMachine[] => [loadMachine('assistant-safety.json', safetyMachineDefinition)];

/**
 * The machines the server offers (`machines/*.json`, the safety machine
 * first); the one built into the app when there is no server to ask.
 * A new `reload` value asks the server again (after the editor saved one).
 */
export function useMachines(fromServer: boolean, reload = 0): LoadedMachine[] {
  const [machines, setMachines] = useState<LoadedMachine[]>(bundled);
  useEffect(() => {
    if (!fromServer) return;
    let live = true;
    apiFetch('/api/machines')
      .then((r) => r.json())
      .then((body: unknown) => {
        const list = MachineList.safeParse(body);
        if (!live || !list.success || list.data.machines.length === 0) return;
        setMachines(list.data.machines.map((m) => loadMachine(m.file, m.json)));
      })
      .catch(() => undefined); // keep the bundled machine
    return () => {
      live = false;
    };
  }, [fromServer, reload]);
  return machines;
}
