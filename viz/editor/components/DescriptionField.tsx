import { useEffect, useState } from 'react';

/** A description being edited: applied with the button, on Ctrl+Enter, or on leaving the field; never empty. */
export function DescriptionField({
  field,
  value,
  onApply,
}: {
  field: string;
  value: string;
  onApply(description: string): void;
}) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const apply = () => {
    const trimmed = text.trim();
    if (trimmed && trimmed !== value) onApply(trimmed);
    else setText(value);
  };
  return (
    <div className="edit-description">
      <textarea
        data-field={field}
        value={text}
        rows={3}
        onChange={(e) => setText(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) apply();
        }}
      />
      <button type="button" data-action={`apply-${field}`} disabled={text.trim() === value} onClick={apply}>
        apply
      </button>
    </div>
  );
}
