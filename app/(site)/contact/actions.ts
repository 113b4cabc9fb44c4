'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { NativeFormState } from '@/lib/native-form-state';
import { sendNativeForm } from '@/server/intake/native-form';

/**
 * The contact form's action when the browser posts it natively (its JavaScript has not run): a 303 to
 * the page that shows the reference, or the form again with what was wrong. The scripted form never
 * calls it; it sends JSON to /api/contact.
 */
export async function sendEnquiryWithoutScript(_previous: NativeFormState, form: FormData): Promise<NativeFormState> {
  const result = await sendNativeForm(form, await headers());
  if (result.kind === 'sent') {
    const query = new URLSearchParams();
    if (result.reference) query.set('reference', result.reference);
    if (result.urgent) query.set('urgent', '1');
    redirect(query.size > 0 ? `/contact/sent?${query}` : '/contact/sent');
  }
  return result;
}
