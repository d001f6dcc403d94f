import { useId, type ReactNode } from 'react';
import { definitionText, type Metric } from './definitions.js';

/**
 * A metric's name with its definition one hover or focus away: the name is a button described by
 * the definition (role tooltip), which shows while the pointer is over it or it has focus.
 */
export function Term({ metric, children }: { metric: Metric; children: ReactNode }) {
  const id = useId();
  return (
    <span className="term">
      <button type="button" className="term-name" aria-describedby={id}>
        {children}
      </button>
      <span role="tooltip" id={id} className="term-tip">
        {definitionText(metric)}
      </span>
    </span>
  );
}
