/**
 * A choice among names shown as they are: a transition's event, or its target
 * state (with `none` for "no target: it stays in its state").
 */
export function NameSelect({
  field,
  names,
  value,
  none,
  onChange,
}: {
  /** `data-field` for tests and labels. */
  field: string;
  names: readonly string[];
  /** The chosen name, `''` for none. */
  value: string;
  /** Label of the empty choice; absent: no empty choice. */
  none?: string;
  onChange(name: string): void;
}) {
  return (
    <select data-field={field} value={value} onChange={(e) => onChange(e.target.value)}>
      {none !== undefined && <option value="">{none}</option>}
      {names.map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
    </select>
  );
}
