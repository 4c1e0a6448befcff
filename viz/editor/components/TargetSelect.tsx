/** A transition's target: one of the machine's states, or none (the transition stays in its state). */
export function TargetSelect({
  field,
  states,
  value,
  none,
  onChange,
}: {
  /** `data-field` for tests and labels. */
  field: string;
  states: readonly string[];
  /** The chosen state, `''` for none. */
  value: string;
  /** Label of the empty choice. */
  none: string;
  onChange(state: string): void;
}) {
  return (
    <select data-field={field} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{none}</option>
      {states.map((s) => (
        <option key={s} value={s}>
          {s}
        </option>
      ))}
    </select>
  );
}
