import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CallButton, PhoneLink } from '@/components/ui/call-button';

const line = { display: '0141 496 0000', e164: '+441414960000' };

describe('CallButton', () => {
  it('calls the line, says so with its number and takes the button style of its variant', () => {
    expect(renderToStaticMarkup(<CallButton phone={line} variant="outline-light" />)).toBe(
      '<a href="tel:+441414960000" class="btn-outline-light">Call 0141 496 0000</a>',
    );
  });

  it('words the call as its label says', () => {
    expect(renderToStaticMarkup(<CallButton phone={line} variant="primary" label={(display) => `Call ${display} now`} />)).toBe(
      '<a href="tel:+441414960000" class="btn-primary">Call 0141 496 0000 now</a>',
    );
  });
});

describe('PhoneLink', () => {
  it('shows the number as a prose link, or with the class it is given', () => {
    expect(renderToStaticMarkup(<PhoneLink phone={line} />)).toBe('<a href="tel:+441414960000" class="prose-link">0141 496 0000</a>');
    expect(renderToStaticMarkup(<PhoneLink phone={line} className="footer-link" />)).toBe(
      '<a href="tel:+441414960000" class="footer-link">0141 496 0000</a>',
    );
  });
});
