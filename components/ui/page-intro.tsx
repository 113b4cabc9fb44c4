import type { ReactNode } from 'react';

/** The coloured band at the top of every inner page: the page's h1 and a lead paragraph. */
export function PageIntro({ title, eyebrow, children }: { title: string; eyebrow?: string; children?: ReactNode }) {
  return (
    <div className="bg-brand-900 text-white">
      <div className="mx-auto max-w-6xl px-4 py-12 md:py-16">
        {eyebrow ? <p className="text-sm font-semibold uppercase tracking-widest text-accent-400">{eyebrow}</p> : null}
        <h1 className="mt-2 text-4xl font-extrabold tracking-tight md:text-5xl">{title}</h1>
        {children ? <div className="mt-4 max-w-3xl text-lg leading-relaxed text-brand-100">{children}</div> : null}
      </div>
    </div>
  );
}
