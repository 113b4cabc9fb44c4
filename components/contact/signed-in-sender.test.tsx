// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { claimFormText } from '@/content/contact';

/** The line of a build with this NEXT_PUBLIC_API_URL (read when lib/public-env loads, as Next inlines it). */
async function lineBuiltWith(apiUrl: string) {
  vi.resetModules();
  vi.stubEnv('NEXT_PUBLIC_API_URL', apiUrl);
  return (await import('@/components/contact/signed-in-sender')).SignedInSender;
}

function answering(body: unknown, status = 200) {
  const fetch = vi.fn(async () => Response.json(body, { status }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => {
  cleanup();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('SignedInSender', () => {
  it('asks once the form is about an instruction, and says whom it is sent as', async () => {
    const fetch = answering({ sender: { email: 'Ania.Wójcik@adjusters.example', organisation: 'Łódź Adjusters' } });
    const SignedInSender = await lineBuiltWith('');
    const { rerender } = render(<SignedInSender instructing={false} />);
    expect(fetch).not.toHaveBeenCalled();
    rerender(<SignedInSender instructing />);
    expect(await screen.findByText(claimFormText.sendingAs('Ania.Wójcik@adjusters.example', 'Łódź Adjusters'))).toBeVisible();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]).toEqual(['/api/portfolio/sender', expect.objectContaining({ cache: 'no-store' })]);
  });

  it('says nothing for nobody signed in, a refused ask or an answer it cannot read', async () => {
    for (const [body, status] of [
      [{ sender: null }, 200],
      [{ sender: null }, 429],
      [{ sender: { email: 1 } }, 200],
    ] as const) {
      const fetch = answering(body, status);
      const SignedInSender = await lineBuiltWith('');
      const { container } = render(<SignedInSender instructing />);
      await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(container).toBeEmptyDOMElement();
      cleanup();
    }
  });

  it('never asks when the form sends to an API on another host, where the site’s cookie proves nothing', async () => {
    const fetch = answering({ sender: { email: 'desk@adjusters.example', organisation: 'Adjusters' } });
    const SignedInSender = await lineBuiltWith('https://api.example.com');
    const { container } = render(<SignedInSender instructing />);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fetch).not.toHaveBeenCalled();
    expect(container).toBeEmptyDOMElement();
  });
});
