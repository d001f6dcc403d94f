import { useId, useLayoutEffect, useRef, useState } from 'react';

export interface EditorError {
  line: number;
  column: number;
  message: string;
}

const LINE_PX = 20;

/**
 * A plain textarea with line numbers, and the API's error shown where it is: the line
 * highlighted, its number marked, and the message beside it. No editor library: the text is the
 * file as sent.
 */
export function YamlEditor({ label, value, onChange, error }: { label: string; value: string; onChange: (v: string) => void; error: EditorError | undefined }) {
  const id = useId();
  const messageId = `${id}-error`;
  const area = useRef<HTMLTextAreaElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const count = Math.max(1, value.split('\n').length);
  const errorTop = error ? (error.line - 1) * LINE_PX - scrollTop : 0;

  // A new error brings its line into view.
  useLayoutEffect(() => {
    if (!error || !area.current) return;
    const top = (error.line - 1) * LINE_PX;
    const el = area.current;
    if (top < el.scrollTop || top > el.scrollTop + el.clientHeight - LINE_PX) el.scrollTop = Math.max(0, top - LINE_PX * 2);
  }, [error]);

  const goTo = () => {
    const el = area.current;
    if (!el || !error) return;
    const lines = value.split('\n');
    const offset = lines.slice(0, error.line - 1).reduce((n, l) => n + l.length + 1, 0) + Math.max(0, error.column - 1);
    el.focus();
    el.setSelectionRange(offset, offset);
  };

  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="yaml-editor" style={{ ['--line' as string]: `${LINE_PX}px` }}>
        <div className="gutter" aria-hidden="true">
          <div style={{ transform: `translateY(${-scrollTop}px)` }}>
            {Array.from({ length: count }, (_, i) => (
              <div key={i} className={error?.line === i + 1 ? 'bad' : undefined}>
                {i + 1}
              </div>
            ))}
          </div>
        </div>
        <div className="text">
          {error ? <div className="line-highlight" data-testid="error-line" data-line={error.line} style={{ top: errorTop }} aria-hidden="true" /> : null}
          {error ? (
            <div className="line-message" style={{ top: errorTop + LINE_PX }} aria-hidden="true">
              {`${error.line}:${error.column} ${error.message}`}
            </div>
          ) : null}
          <textarea
            ref={area}
            id={id}
            spellCheck={false}
            wrap="off"
            rows={16}
            value={value}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? messageId : undefined}
            onChange={(e) => onChange(e.target.value)}
            onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
          />
        </div>
      </div>
      {error ? (
        <p id={messageId} className="error" role="alert" data-testid="yaml-error">
          {`Line ${error.line}, column ${error.column}: ${error.message}`}{' '}
          <button type="button" className="secondary" onClick={goTo}>
            Go to line {error.line}
          </button>
        </p>
      ) : null}
    </div>
  );
}
