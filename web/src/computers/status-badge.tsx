/** A computer's or a step's status as a word with a colour; the word carries the meaning. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge status-${status}`}>{status}</span>;
}
