import { useState } from 'react';
import type { MachineDefinition } from 'assistant-safety';
import { toMermaid } from 'assistant-safety/export';
import { toScxml } from 'assistant-safety/export';

const FORMATS = {
  mermaid: { label: 'Mermaid', ext: 'mmd', type: 'text/plain', render: toMermaid },
  scxml: { label: 'SCXML', ext: 'scxml', type: 'application/scxml+xml', render: toScxml },
} as const;

function download(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The edited machine as Mermaid `stateDiagram-v2` or W3C SCXML: download the file or copy the text. */
export function ExportButtons({ name, definition }: { name: string; definition: MachineDefinition }) {
  const [copied, setCopied] = useState<string>();
  return (
    <div className="edit-export">
      <span className="edit-label">export</span>
      {(Object.keys(FORMATS) as (keyof typeof FORMATS)[]).map((f) => {
        const { label, ext, type, render } = FORMATS[f];
        return (
          <span key={f} className="edit-export-format">
            <button
              type="button"
              data-action={`export-${f}`}
              onClick={() => download(`${name}.${ext}`, render(definition), type)}
            >
              {label} ↓
            </button>
            <button
              type="button"
              data-action={`copy-${f}`}
              aria-label={`copy ${label}`}
              onClick={() =>
                navigator.clipboard?.writeText(render(definition)).then(
                  () => setCopied(label),
                  () => setCopied(`${label}: copy refused by the browser`),
                )
              }
            >
              copy
            </button>
          </span>
        );
      })}
      {copied && <span className="muted">copied {copied}</span>}
    </div>
  );
}
