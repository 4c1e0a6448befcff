import { useMemo } from 'react';
import { lineDiff } from 'assistant-safety/editor';

/** Unchanged lines kept around each change. */
const CONTEXT = 3;

/** A line diff of two texts, unchanged stretches folded to a few lines of context. */
export function DiffView({ before, after, title }: { before: string; after: string; title: string }) {
  const rows = useMemo(() => {
    const diff = lineDiff(before, after);
    const near = diff.map((_, i) => diff.slice(Math.max(0, i - CONTEXT), i + CONTEXT + 1).some((l) => l.op !== ' '));
    const out: { op: string; text: string; line?: number }[] = [];
    let folded = 0;
    diff.forEach((l, i) => {
      if (near[i]) {
        if (folded) out.push({ op: '…', text: `${folded} unchanged line${folded === 1 ? '' : 's'}` });
        folded = 0;
        out.push(l);
      } else folded++;
    });
    if (folded) out.push({ op: '…', text: `${folded} unchanged line${folded === 1 ? '' : 's'}` });
    return out;
  }, [before, after]);
  const changes = rows.filter((r) => r.op === '+' || r.op === '-').length;
  return (
    <div className="edit-diff" data-testid="save-diff">
      <div className="edit-label">
        {title}: {changes === 0 ? 'no change' : `${changes} changed line${changes === 1 ? '' : 's'}`}
      </div>
      {changes > 0 && (
        <pre>
          {rows.map((r, i) => (
            <div
              key={i}
              className={`diff-line diff-${r.op === '+' ? 'add' : r.op === '-' ? 'del' : r.op === '…' ? 'fold' : 'same'}`}
            >
              {r.op === '…' ? `  ⋯ ${r.text}` : `${r.op} ${r.text}`}
            </div>
          ))}
        </pre>
      )}
    </div>
  );
}
