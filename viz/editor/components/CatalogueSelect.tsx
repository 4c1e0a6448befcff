/**
 * A choice from a catalogue (guards or actions). The options are the names
 * (each with its description as a tooltip); the inspector shows the chosen
 * entry's description in full under the picker, wrapped to the panel (a
 * description inside the option was cut off at the panel's edge).
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
          {name}
        </option>
      ))}
    </select>
  );
}
