/**
 * A choice from a catalogue (guards or actions): each option shows the
 * entry's name and its description, so the choice is made knowing what it does.
 */
export function CatalogueSelect({
  field,
  catalogue,
  value,
  none,
  onChange,
}: {
  /** `data-field` for tests and labels. */
  field: string;
  catalogue: Record<string, { description: string }>;
  value: string;
  /** Label of the empty choice; absent: no empty choice. */
  none?: string;
  onChange(name: string): void;
}) {
  return (
    <select data-field={field} value={value} onChange={(e) => onChange(e.target.value)}>
      {none !== undefined && <option value="">{none}</option>}
      {Object.entries(catalogue).map(([name, { description }]) => (
        <option key={name} value={name} title={description}>
          {`${name} — ${description}`}
        </option>
      ))}
    </select>
  );
}
