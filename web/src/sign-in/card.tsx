import type { ReactNode } from 'react';

/** The frame of the pages shown before anyone is signed in. */
export function SignInCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="signin">
      <div className="card">
        <p className="brand">orgctl</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
