// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** The form of a build with this NEXT_PUBLIC_API_URL (read when lib/public-env loads, as Next inlines it). */
async function formBuiltWith(apiUrl: string) {
  vi.resetModules();
  vi.stubEnv('NEXT_PUBLIC_API_URL', apiUrl);
  return (await import('@/components/contact/contact-form')).ContactForm;
}

afterEach(() => {
  cleanup();
  vi.unstubAllEnvs();
});

describe('photos only when the API is the site itself', () => {
  it('with the API on another host, which may not accept files: no photo field; the claim details stay', async () => {
    const ContactForm = await formBuiltWith('https://api.example.com');
    render(<ContactForm siteKey="" />);
    expect(screen.queryByLabelText(/Photos of the damage/)).toBeNull();
    expect(document.querySelector('input[type="file"]')).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'This is about an insurance claim' })).toBeInTheDocument();
  });

  it('with the API on the site itself: the photo field, for the gallery and the camera', async () => {
    const ContactForm = await formBuiltWith('');
    render(<ContactForm siteKey="" />);
    expect(screen.getByLabelText('Photos of the damage (optional)')).toHaveAttribute('accept', 'image/*');
  });
});
