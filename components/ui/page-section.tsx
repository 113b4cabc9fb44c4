import type { ReactNode } from 'react';

const LAYOUTS = {
  /** A block centred in the page's width. */
  block: { section: 'mx-auto max-w-6xl px-4 py-16', inner: '' },
  /** A full-width tinted band with the block centred in it. */
  band: { section: 'bg-slate-50', inner: 'mx-auto max-w-6xl px-4 py-16' },
  /** Inside a column or grid the page lays out itself. */
  column: { section: '', inner: '' },
} as const;

const HEADINGS = {
  large: 'text-3xl font-bold text-brand-900',
  medium: 'text-2xl font-bold text-brand-900',
  /** Named for screen readers and the outline, not shown. */
  hidden: 'sr-only',
} as const;

/**
 * A titled section of a page: a landmark named by its h2 (`{id}-heading`), in one of the site's
 * layouts. Every section of every page is one of these, so spacing and headings stay consistent.
 */
export function PageSection({
  id,
  title,
  layout = 'block',
  heading = 'large',
  className,
  children,
}: {
  id: string;
  title: ReactNode;
  layout?: keyof typeof LAYOUTS;
  heading?: keyof typeof HEADINGS;
  className?: string;
  children: ReactNode;
}) {
  const headingId = `${id}-heading`;
  const { section, inner } = LAYOUTS[layout];
  const content = (
    <>
      <h2 id={headingId} className={HEADINGS[heading]}>
        {title}
      </h2>
      {children}
    </>
  );
  return (
    <section aria-labelledby={headingId} className={[section, className].filter(Boolean).join(' ') || undefined}>
      {inner ? <div className={inner}>{content}</div> : content}
    </section>
  );
}
