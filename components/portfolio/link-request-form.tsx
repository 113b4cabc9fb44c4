'use client';

import { useActionState, useRef, useState, type FormEvent } from 'react';
import { Field } from '@/components/contact/field';
import { portfolioRequestText as text } from '@/content/portfolio-request';
import { LINK_REQUEST_EMAIL_MAX, LINK_REQUEST_FIELD, type LinkRequestState } from '@/lib/portfolio/link-request-state';

type Check = typeof import('@/lib/portfolio/link-request').parseLinkRequest;

const IDLE: LinkRequestState = { kind: 'idle' };
const FIELD_ID = 'portfolio-email';

/**
 * One e-mail field and a button that says it sends a link. Posted to /insurers itself (a server action):
 * before the script runs the browser posts it and the page comes back with the answer; after, it is
 * sent without leaving the page. The shared schema checks the address here first: it comes when the field
 * is first used (zod is most of its weight), a press before it arrives waits for it, and the server
 * checks with it regardless.
 */
export function LinkRequestForm({ ask }: { ask: (previous: LinkRequestState, form: FormData) => Promise<LinkRequestState> }) {
  // The permalink is the form's action attribute before hydration: the page itself.
  const [state, action, pending] = useActionState(ask, IDLE, '/insurers');
  const [localError, setLocalError] = useState<string | null>(null);
  const check = useRef<Check | null>(null);
  const loading = useRef<Promise<Check | null> | null>(null);
  const unavailable = useRef(false);
  const loadCheck = () =>
    (loading.current ??= import('@/lib/portfolio/link-request').then(
      (module) => (check.current = module.parseLinkRequest),
      () => null,
    ));
  const fieldError = localError ?? (state.kind === 'refused' ? state.fieldError : undefined);
  const message = localError ? null : state.kind === 'refused' && !state.fieldError ? state.message : null;

  function checkFirst(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    if (!check.current) {
      // Pressed before the check arrived: it is waited for, then the form is sent again through it. If it
      // cannot load (the network dropped), the server's answer is the check.
      if (unavailable.current) return;
      event.preventDefault();
      void loadCheck().then((loaded) => {
        unavailable.current = loaded === null;
        form.requestSubmit();
      });
      return;
    }
    const parsed = check.current({ email: new FormData(form).get(LINK_REQUEST_FIELD) });
    setLocalError(parsed.ok ? null : parsed.error);
    if (!parsed.ok) {
      event.preventDefault();
      document.getElementById(FIELD_ID)?.focus();
    }
  }

  return (
    <form action={action} onSubmit={checkFirst} noValidate className="mt-6 max-w-md space-y-5" data-testid="portfolio-link-request">
      <Field id={FIELD_ID} label={text.label} error={fieldError ?? undefined} required>
        {(control) => (
          <input
            {...control}
            name={LINK_REQUEST_FIELD}
            type="email"
            defaultValue={state.kind === 'refused' ? state.email : ''}
            key={state.kind === 'refused' ? `email-${state.email}` : 'email'}
            autoComplete="email"
            onFocus={() => void loadCheck()}
            required
            maxLength={LINK_REQUEST_EMAIL_MAX}
          />
        )}
      </Field>
      <button type="submit" className="btn-primary" disabled={pending}>
        {pending ? text.sending : text.submit}
      </button>
      <div role="status" className="font-semibold text-brand-900">
        {state.kind === 'answered' && !localError ? text.answered : null}
      </div>
      <div role="alert" className="font-semibold text-red-700">
        {message}
      </div>
    </form>
  );
}
