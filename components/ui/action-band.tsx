import type { ReactNode } from 'react';

/** The dark band that closes a page: a heading, a line of text and its buttons (`children`). */
export function ActionBand({ id, title, text, children }: { id: string; title: string; text: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} className="bg-brand-900 text-white">
      <div className="mx-auto max-w-4xl px-4 py-16 text-center">
        <h2 id={`${id}-heading`} className="text-3xl font-bold">
          {title}
        </h2>
        <p className="mt-4 text-lg leading-relaxed text-brand-100">{text}</p>
        <div className="mt-8 flex flex-wrap justify-center gap-4">{children}</div>
      </div>
    </section>
  );
}
