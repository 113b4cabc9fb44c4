import Link from 'next/link';

/** A plain list of internal links (the footer's policies, the sitemap page's pages). */
export function LinkList({
  links,
  className,
  linkClassName,
}: {
  links: readonly { href: string; label: string }[];
  className?: string;
  linkClassName: string;
}) {
  return (
    <ul className={className}>
      {links.map((link) => (
        <li key={link.href}>
          <Link href={link.href} className={linkClassName}>
            {link.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}
