import { useCallback, useEffect, useState } from 'react';
import { MachineFileResponse } from 'assistant-safety/editor';
import { apiFetch } from '../../model/api.js';

/** Loads `machines/<name>.json` with its text, version and layout from the server; `reload` reads it again. */
export function useMachineFile(name: string | undefined): {
  file?: MachineFileResponse;
  error?: string;
  /** Bumped by each load: a new editor session starts on each. */
  loads: number;
  reload(): void;
} {
  const [state, setState] = useState<{ file?: MachineFileResponse; error?: string; loads: number }>({ loads: 0 });
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (!name) return;
    let live = true;
    apiFetch(`/api/machines/${encodeURIComponent(name)}`)
      .then((r) => r.json())
      .then((body: unknown) => {
        const parsed = MachineFileResponse.safeParse(body);
        if (!live) return;
        setState((s) =>
          parsed.success
            ? { file: parsed.data, loads: s.loads + 1 }
            : { error: `unexpected answer: ${parsed.error.message}`, loads: s.loads },
        );
      })
      .catch((e: unknown) => live && setState((s) => ({ error: (e as Error).message, loads: s.loads })));
    return () => {
      live = false;
    };
  }, [name, asked]);
  const reload = useCallback(() => setAsked((n) => n + 1), []);
  return { ...state, reload };
}
