import { Field } from '../ui/parts.js';

export const MIN_PASSWORD = 10;

/** A new password typed twice; `mismatch` says whether the two differ. */
export function NewPassword({
  value,
  confirm,
  onChange,
  onConfirm,
  label = 'New password',
}: {
  value: string;
  confirm: string;
  onChange: (v: string) => void;
  onConfirm: (v: string) => void;
  label?: string;
}) {
  return (
    <>
      <Field label={`${label} (at least ${MIN_PASSWORD} characters)`}>
        <input type="password" autoComplete="new-password" required minLength={MIN_PASSWORD} value={value} onChange={(e) => onChange(e.target.value)} />
      </Field>
      <Field label="Repeat it">
        <input type="password" autoComplete="new-password" required minLength={MIN_PASSWORD} value={confirm} onChange={(e) => onConfirm(e.target.value)} />
      </Field>
    </>
  );
}
