import { cloneElement, useId, useState, type ReactElement, type ReactNode } from 'react';
import { ApiFailure } from '../api.js';

/** An error of a call, as the person should read it: the service's detail and its request id. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const text = error instanceof ApiFailure ? error.detail : error instanceof Error ? error.message : String(error);
  const id = error instanceof ApiFailure ? error.requestId : undefined;
  return (
    <p className="error" role="alert">
      {text}
      {id ? <span className="muted"> (request {id})</span> : null}
    </p>
  );
}

/** A labelled control. The label names the control by id rather than by wrapping it, so its name is the label alone (not the label plus the control's value). */
export function Field({ label, children }: { label: string; children: ReactElement<{ id?: string }> }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id })}
    </div>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="secondary"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        );
      }}
    >
      {copied ? 'Copied' : label}
    </button>
  );
}

function Loading() {
  return <p className="muted">Loading…</p>;
}

/**
 * What a query has to say before (or instead of) its data, the one way every page says it: the
 * API's error; "Loading…" only while a request is on its way (a query that waits for another, or
 * will not run, is not loading); `empty` once the data holds nothing to show.
 */
export function QueryState({ query, empty }: { query: { isLoading: boolean; error: unknown }; empty?: ReactNode }) {
  if (query.error) return <ErrorNote error={query.error} />;
  if (query.isLoading) return <Loading />;
  return empty ? <p className="muted">{empty}</p> : null;
}

/**
 * A table that may be wider than the page (many columns, a small screen) scrolls inside this
 * region instead of widening the page. Named and focusable, so that a keyboard can scroll it.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** A page of a signed-in area: its title as the page's one h1. */
export function Page({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      {children}
    </section>
  );
}
