import { Field } from '../ui/parts.js';

/**
 * A whole number of credits as typed, with grouping (spaces, commas, underscores) allowed;
 * undefined when it is not one. The range (at least 1,000,000) is the API's to check, so
 * its error object is what the person reads.
 */
export function parseCredits(text: string): number | undefined {
  const digits = text.replace(/[\s,_]/g, '');
  return /^\d{1,16}$/.test(digits) ? Number(digits) : undefined;
}

/** A text field rather than type=number, whose own checks would stop the form before the API says why. */
export function CreditsField({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  return (
    <Field label={label}>
      <input type="text" inputMode="numeric" autoComplete="off" required value={value} onChange={(e) => onChange(e.target.value)} />
    </Field>
  );
}

export const NOT_A_NUMBER = 'Enter a whole number of credits, such as 5000000.';
