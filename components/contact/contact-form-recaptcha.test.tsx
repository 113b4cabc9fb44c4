// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContactForm } from '@/components/contact/contact-form';
import { CONTACT_OUTCOME_MESSAGES } from '@/content/contact';
import { createLogger } from '@/lib/logger';

const recaptchaToken = vi.hoisted(() => vi.fn<(siteKey: string) => Promise<string>>());
vi.mock('@/lib/recaptcha-client', () => ({ loadRecaptcha: () => new Promise(() => undefined), recaptchaToken }));

afterEach(cleanup);

describe('ContactForm when Google’s script fails to load', () => {
  it('says so, and the next Send starts again with a fresh token', async () => {
    recaptchaToken.mockRejectedValueOnce(new Error('script blocked')).mockResolvedValueOnce('token-2');
    const apiRequest = vi.fn(async () => ({ status: 201, data: { success: true, message: 'Stored.' } }));
    const logger = createLogger({
      endpoint: '/api/error-logs',
      send: async () => undefined,
      console: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    render(<ContactForm siteKey="site-key-1" endpoint="/api/contact" apiRequest={apiRequest as never} logger={logger} />);
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Jo Bloggs' } });
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'jo@example.com' } });
    fireEvent.change(screen.getByLabelText(/^Subject/), { target: { value: 'Leaking roof' } });
    fireEvent.change(screen.getByLabelText(/^Message/), { target: { value: 'Water is coming through.' } });
    const form = screen.getByRole('button', { name: 'Send message' }).closest('form')!;

    fireEvent.submit(form);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(CONTACT_OUTCOME_MESSAGES.failed));
    expect(apiRequest).not.toHaveBeenCalled();

    fireEvent.submit(form);
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Stored.'));
    expect(apiRequest).toHaveBeenCalledTimes(1);
    expect(apiRequest).toHaveBeenCalledWith(
      '/api/contact',
      expect.objectContaining({ json: expect.objectContaining({ recaptchaToken: 'token-2' }) }),
    );
  });
});
