import { business } from '@/content/business';

/** The company's postal address, one line per row, as the footer, sitemap and contact page show it. */
export function PostalAddress({ className }: { className?: string }) {
  return (
    <address className={`not-italic leading-relaxed ${className ?? ''}`}>
      {business.address.lines.map((line) => (
        <span key={line} className="block">
          {line}
        </span>
      ))}
    </address>
  );
}
