import { useEffect, useState } from 'react';
import { createSafetyMachine, type SafetyMachine } from 'assistant-safety';
import { safeParseMachineDefinition, type MachineDefinition } from 'assistant-safety';
import { MachineList } from 'assistant-safety/live';
import { safetyMachineDefinition } from 'assistant-safety';
import { createPatrolMachine, patrolMachineDefinition, type PatrolMachine } from 'assistant-safety/patrol';
import { apiFetch } from '../model/api.js';
import { buildGraphModel, type GraphModel } from '../model/graphModel.js';
import { machineKindOf } from '../model/machineKindOf.js';

interface Drawable {
  file: string;
  ok: true;
  definition: MachineDefinition;
  graph: GraphModel;
}

/** One machine of `machines/`, ready to draw and to replay against, or why it cannot be. */
export type LoadedMachine =
  | (Drawable & { kind: 'safety'; machine: SafetyMachine })
  | (Drawable & { kind: 'patrol'; machine: PatrolMachine })
  | { file: string; ok: false; error: string };

/** A machine sessions run on (live, playground, recorded sessions), or one that did not load. */
export type SessionMachine = Exclude<LoadedMachine, { kind: 'patrol' }>;

/** A Patrol run machine, built with the Patrol kind's schema and registries. */
function loadPatrolMachine(file: string, json: unknown): LoadedMachine {
  try {
    const machine = createPatrolMachine(json);
    const definition = json as MachineDefinition;
    return { file, ok: true, kind: 'patrol', definition, machine, graph: buildGraphModel(definition) };
  } catch (e) {
    return { file, ok: false, error: (e as Error).message };
  }
}

/** Validates and builds one machine JSON with its kind's schema and registries. */
function loadMachine(file: string, json: unknown): LoadedMachine {
  if (machineKindOf(file) === 'patrol') return loadPatrolMachine(file, json);
  const parsed = safeParseMachineDefinition(json);
  if (!parsed.success) return { file, ok: false, error: parsed.error.message };
  return {
    file,
    ok: true,
    kind: 'safety',
    definition: parsed.data,
    machine: createSafetyMachine(parsed.data),
    graph: buildGraphModel(parsed.data),
  };
}

const bundled = (): LoadedMachine[] => [
  loadMachine('assistant-safety.json', safetyMachineDefinition),
  loadMachine('patrol.json', patrolMachineDefinition),
];

/**
 * The machines the server offers (`machines/*.json`, the safety machine
 * first); the safety and Patrol machines built into the app when there is no
 * server to ask.
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
        setMachines(
          list.data.machines.map((m) =>
            m.error !== undefined ? { file: m.file, ok: false, error: m.error } : loadMachine(m.file, m.json),
          ),
        );
      })
      .catch(() => undefined); // keep the bundled machine
    return () => {
      live = false;
    };
  }, [fromServer, reload]);
  return machines;
}
