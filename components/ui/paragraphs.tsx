import type { ReactNode } from 'react';

/**
 * Paragraphs of body copy, spaced evenly; `lead` sets them larger (a page's opening text). Anything in
 * `children` follows the paragraphs in the same block, spaced alike.
 */
export function Paragraphs({
  paragraphs,
  lead = false,
  className,
  children,
}: {
  paragraphs: readonly string[];
  lead?: boolean;
  className?: string;
  children?: ReactNode;
}) {
  const classes = [className, 'space-y-4', lead ? 'text-lg' : null, 'leading-relaxed text-slate-700'].filter(Boolean).join(' ');
  return (
    <div className={classes}>
      {paragraphs.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      {children}
    </div>
  );
}
