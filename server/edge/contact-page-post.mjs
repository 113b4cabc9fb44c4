// The contact form posted without JavaScript (a native POST /contact, handled by the page's server
// action): what server.mjs lets through to Next, and the short page it responds with otherwise.
// Plain JavaScript (typed by JSDoc) so server.mjs runs it with no compile step.
import { LARGEST_BODY_BYTES } from '../../lib/enquiry-rules.mjs';
import { mediaTypeOf } from '../base/media-type.mjs';
import { declaredLength } from './server-limits.mjs';

/** The one page path that takes a body (exact, after normalisation; any query string). */
export const CONTACT_PAGE_PATH = '/contact';

/**
 * Why a POST to the contact page is refused before its body is read, or undefined to let it through:
 * `not-a-form` (415) unless it is multipart/form-data, `no-length` (411) without a Content-Length,
 * `too-large` (413) over the largest enquiry (LARGEST_BODY_BYTES of lib/enquiry-rules.mjs).
 * @param {import('node:http').IncomingHttpHeaders} headers
 * @returns {{ status: 415; reason: 'not-a-form' } | { status: 411; reason: 'no-length' } | { status: 413; reason: 'too-large' } | undefined}
 */
export function contactPostRefusal(headers) {
  if (mediaTypeOf(headers['content-type']) !== 'multipart/form-data') return { status: 415, reason: 'not-a-form' };
  const declared = declaredLength(headers['content-length']);
  if (declared === undefined) return { status: 411, reason: 'no-length' };
  if (declared > LARGEST_BODY_BYTES) return { status: 413, reason: 'too-large' };
  return undefined;
}

/** @param {string} text */
function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * A short, complete HTML page: what happened, a link back to the form (`backHref`, the contact page
 * unless said) and the telephone number.
 * @param {{ title: string; text: string }} page
 * @param {{ back: string; backHref?: string; call: string; phone: { display: string; e164: string }; lang?: string }} around
 */
export function refusalPage(page, around) {
  const { title, text } = page;
  return `<!doctype html>
<html lang="${escapeHtml(around.lang ?? 'en-GB')}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>
<p><a href="${escapeHtml(around.backHref ?? CONTACT_PAGE_PATH)}">${escapeHtml(around.back)}</a></p>
<p>${escapeHtml(around.call)} <a href="tel:${escapeHtml(around.phone.e164)}">${escapeHtml(around.phone.display)}</a>.</p>
</main>
</body>
</html>
`;
}
