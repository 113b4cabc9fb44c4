// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContactForm } from '@/components/contact/contact-form';
import { photoText } from '@/content/contact';
import { todayInUk } from '@/lib/contact-fields';
import { createLogger } from '@/lib/logger';
import { forgetLanding, recordLanding } from '@/lib/visit-landing';

afterEach(() => {
  cleanup();
  forgetLanding();
});

function setup(siteKey: string, answer: Record<string, unknown> = { success: true, message: 'Stored.' }) {
  const apiRequest = vi.fn(async () => ({ status: 201, data: answer }));
  const sent: string[] = [];
  const logger = createLogger({
    endpoint: '/api/error-logs',
    send: async (_url, body) => void sent.push(body),
    console: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  render(<ContactForm siteKey={siteKey} endpoint="/api/contact" apiRequest={apiRequest as never} logger={logger} />);
  return { apiRequest, sent };
}

function fill() {
  fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: ' Jo Bloggs ' } });
  fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'jo@example.com' } });
  fireEvent.change(screen.getByLabelText(/^Subject/), { target: { value: 'Leaking roof' } });
  fireEvent.change(screen.getByLabelText(/^Message/), { target: { value: 'Water is coming through.' } });
}

describe('ContactForm without NEXT_PUBLIC_RECAPTCHA_SITE_KEY', () => {
  it('loads no script, shows no disclosure, and sends without a token', async () => {
    const { apiRequest, sent } = setup('');
    fill();
    fireEvent.submit(screen.getByRole('button', { name: 'Send message' }).closest('form')!);
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Stored.'));
    expect(document.querySelector('script[src*="recaptcha"]')).toBeNull();
    expect(screen.queryByText(/protected by reCAPTCHA/)).toBeNull();
    expect(apiRequest).toHaveBeenCalledWith('/api/contact', {
      method: 'POST',
      json: {
        name: 'Jo Bloggs',
        email: 'jo@example.com',
        phone: '',
        subject: 'Leaking roof',
        message: 'Water is coming through.',
        // The page it was sent from; no landing was recorded in this test.
        sentFrom: '/',
        recaptchaToken: '',
        website: '',
        // Made when the form took over the page, sent with every try of this enquiry.
        enquiryKey: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      },
      skipErrorLogging: true,
      signal: expect.any(AbortSignal),
    });
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]!)).toMatchObject({ level: 'info', source: 'contact-form', statusCode: 201 });
    expect(sent[0]).not.toMatch(/Jo Bloggs|jo@example\.com|Leaking roof|Water is coming/);
  });
});

describe('ContactForm when the server stored the enquiry but not its photos', () => {
  it('shows the success message, the reference and that the photos were not kept', async () => {
    setup('', { success: true, message: 'Stored.', reference: 'HC-ABC-DEF', photosNotKept: 2 });
    fill();
    fireEvent.submit(screen.getByRole('button', { name: 'Send message' }).closest('form')!);
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Stored.'));
    expect(screen.getByRole('status')).toHaveTextContent('HC-ABC-DEF');
    expect(screen.getByRole('status')).toHaveTextContent(photoText.notKept);
  });

  it('says nothing of photos when they were kept', async () => {
    setup('', { success: true, message: 'Stored.', reference: 'HC-ABC-DEF' });
    fill();
    fireEvent.submit(screen.getByRole('button', { name: 'Send message' }).closest('form')!);
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('HC-ABC-DEF'));
    expect(screen.getByRole('status')).not.toHaveTextContent(photoText.notKept);
  });
});

describe('ContactForm with a site key', () => {
  it('adds Google’s script on first engagement, not on render', () => {
    setup('site-key-1');
    expect(document.querySelector('script[src*="recaptcha"]')).toBeNull();
    fireEvent.focus(screen.getByLabelText(/^Name/));
    const script = document.querySelector<HTMLScriptElement>('script[src*="recaptcha"]');
    expect(script?.src).toBe('https://www.google.com/recaptcha/enterprise.js?render=site-key-1');
    expect(screen.getByText(/protected by reCAPTCHA/)).toBeInTheDocument();
  });
});

describe('ContactForm says where the enquiry came from', () => {
  it('sends the page it was sent from and the landing of the visit, with its referrer origin and campaign tags', async () => {
    recordLanding(
      'https://www.example.com/services/storm-weather?utm_source=google&utm_medium=cpc&utm_campaign=winter',
      'https://www.google.com/search?q=storm',
    );
    const { apiRequest } = setup('');
    fill();
    fireEvent.submit(screen.getByRole('button', { name: 'Send message' }).closest('form')!);
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Stored.'));
    expect(apiRequest).toHaveBeenCalledWith(
      '/api/contact',
      expect.objectContaining({
        json: expect.objectContaining({
          sentFrom: '/',
          landingPage: '/services/storm-weather',
          referrer: 'https://www.google.com',
          utmSource: 'google',
          utmMedium: 'cpc',
          utmCampaign: 'winter',
        }),
      }),
    );
  });
});

describe('ContactForm taking over a page the visitor has already used', () => {
  it('keeps what was typed and ticked before it hydrated, through later changes and the send', async () => {
    const { renderToString } = await import('react-dom/server');
    const apiRequest = vi.fn(async () => ({ status: 201, data: { success: true, message: 'Stored.' } }));
    const logger = createLogger({
      endpoint: '/api/error-logs',
      send: async () => undefined,
      console: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    const form = <ContactForm siteKey="" endpoint="/api/contact" apiRequest={apiRequest as never} logger={logger} />;
    const container = document.body.appendChild(document.createElement('div'));
    container.innerHTML = renderToString(form);
    // Typed and ticked while the page was still plain HTML.
    container.querySelector<HTMLInputElement>('input[name="name"]')!.value = 'Morag Before';
    container.querySelector<HTMLTextAreaElement>('textarea[name="message"]')!.value = 'Typed before the script ran.';
    container.querySelector<HTMLInputElement>('input[name="claim"]')!.checked = true;
    container.querySelector<HTMLInputElement>('input[name="worsening"][value="yes"]')!.checked = true;

    render(form, { container, hydrate: true });
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'morag@example.com' } });
    fireEvent.change(screen.getByLabelText(/^Subject/), { target: { value: 'Ceiling' } });
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Morag Before');
    expect(screen.getByLabelText(/^Message/)).toHaveValue('Typed before the script ran.');

    fireEvent.submit(screen.getByRole('button', { name: 'Send message' }).closest('form')!);
    await waitFor(() => expect(apiRequest).toHaveBeenCalled());
    expect(apiRequest.mock.calls[0]).toMatchObject([
      '/api/contact',
      { json: { name: 'Morag Before', email: 'morag@example.com', message: 'Typed before the script ran.', worsening: 'yes' } },
    ]);
  });
});

describe('ContactForm: the date of the damage', () => {
  it('has no latest date until it is focused (nothing computed while the page hydrates), then today in the UK', () => {
    setup('');
    const date = screen.getByLabelText('Date of the damage', { exact: false }) as HTMLInputElement;
    expect(date.max).toBe('');
    fireEvent.focus(date);
    expect(date.max).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(date.max).toBe(todayInUk());
  });
});

describe('ContactForm: what would help us work with the person', () => {
  it('is a group in the claim part: a "no phone calls" box and a text field, sent only while the part is open', async () => {
    const { apiRequest } = setup('');
    const group = screen.getByRole('group', { name: 'Would anything help us work with you? (optional)' });
    expect(group).toHaveAccessibleDescription(/access needs, someone to speak to for you, or times not to call/);
    const noCalls = screen.getByRole('checkbox', { name: 'No phone calls, please' });
    const words = screen.getByRole('textbox', { name: 'What would help' });
    expect(words).toHaveAttribute('maxLength', '500');

    fill();
    fireEvent.click(screen.getByRole('checkbox', { name: 'This is about an insurance claim' }));
    fireEvent.click(noCalls);
    expect(noCalls).toBeChecked();
    fireEvent.change(words, { target: { value: '  Side door, please.\nSpeak to my son Ali.  ' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Send message' }).closest('form')!);
    await waitFor(() => expect(apiRequest).toHaveBeenCalledTimes(1));
    expect(apiRequest.mock.calls[0]).toMatchObject([
      '/api/contact',
      { json: { noPhoneCalls: 'yes', supportNeeds: 'Side door, please.\nSpeak to my son Ali.' } },
    ]);
  });

  it('an untick is no answer, and a closed claim part sends neither', async () => {
    const { apiRequest } = setup('');
    fill();
    const claim = screen.getByRole('checkbox', { name: 'This is about an insurance claim' });
    fireEvent.click(claim);
    const noCalls = screen.getByRole('checkbox', { name: 'No phone calls, please' });
    fireEvent.click(noCalls);
    fireEvent.click(noCalls);
    expect(noCalls).not.toBeChecked();
    fireEvent.change(screen.getByRole('textbox', { name: 'What would help' }), { target: { value: 'Ring twice.' } });
    fireEvent.click(claim);
    fireEvent.submit(screen.getByRole('button', { name: 'Send message' }).closest('form')!);
    await waitFor(() => expect(apiRequest).toHaveBeenCalledTimes(1));
    const [, request] = apiRequest.mock.calls[0] as unknown as [string, { json: Record<string, string> }];
    expect(request.json).not.toHaveProperty('noPhoneCalls');
    expect(request.json).not.toHaveProperty('supportNeeds');
  });
});
