import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EmailLink } from '@/components/ui/email-link';

describe('EmailLink', () => {
  it('shows the address as a prose link that writes to it, or with the class it is given', () => {
    expect(renderToStaticMarkup(<EmailLink address="office@example.com" />)).toBe(
      '<a href="mailto:office@example.com" class="prose-link">office@example.com</a>',
    );
    expect(renderToStaticMarkup(<EmailLink address="office@example.com" className="footer-link" />)).toBe(
      '<a href="mailto:office@example.com" class="footer-link">office@example.com</a>',
    );
  });
});
