// The checks server.mjs makes on a request that carries a body, before Next reads a byte of it: the
// method, the path, a cross-site post, and on each path of path-rules.mjs that takes a body its own
// check (the upload gate for photos, the size and type of a claim page's form). A request turned away
// here gets its response at once and the connection closes rather than reading the body.
// Plain JavaScript (typed by JSDoc) so server.mjs runs it with no compile step.
import { TRACK_PATH } from '../../lib/claim-paths.mjs';
import { mediaTypeOf } from '../base/media-type.mjs';
import { claimFormPostRefusal } from './claim-page-rules.mjs';
import { contactPostRefusal, refusalPage } from './contact-page-post.mjs';
import { bodyRuleOf, takesBody } from './path-rules.mjs';
import { isCrossSiteRequest } from './request-origin.mjs';
import { bodyRequestRefusal, guardRequestBody, normalisedPathname, PAGE_METHODS } from './server-limits.mjs';
import { admitUpload } from './upload-gate.mjs';
import { createUploadSlots } from './upload-slots.mjs';

/**
 * @typedef {{ title: string; text: string }} ShortPage
 * @typedef {import('node:http').IncomingMessage} Request
 * @typedef {import('node:http').ServerResponse} Response
 * @typedef {import('./path-rules.mjs').BodyRule} BodyRule
 * @typedef {import('./upload-gate.mjs').GateRefusal} GateRefusal
 */

/**
 * The words of the responses given here, from content/ (TypeScript, which server.mjs reads with tsx).
 * @typedef {object} BodyCheckWords
 * @property {typeof import('../../content/contact').refusedPostPages} pages the contact form posted without script
 * @property {typeof import('../../content/contact').CONTACT_RESPONSES} responses the scripted contact form
 * @property {typeof import('../../lib/contact-fields').PHOTO_FIELD} photoField
 * @property {typeof import('../../content/business').business.phone} phone
 * @property {typeof import('../../content/later-photos').laterPhotosGatePages} laterPhotosGatePages
 * @property {typeof import('../../content/later-photos').laterPhotosPageLinks} laterPhotosPageLinks
 * @property {typeof import('../../content/later-photos').laterPhotosRetiredPage} laterPhotosRetiredPage
 * @property {typeof import('../../content/later-photos').laterPhotosText} laterPhotosText
 */

/**
 * The `reason` of a later-photos upload turned away at the upload gate, as /api/contact's: `rate-limited`
 * when it is this client's own doing (its uploads kept ending slow or abandoned), `busy` while an upload
 * is in progress (its own earlier one, or every slot taken).
 * @type {Record<GateRefusal, import('../../lib/contact-response.mjs').ResponseReason>}
 */
const LATER_PHOTOS_GATE_REASONS = { busy: 'busy', 'in-progress': 'busy', strikes: 'rate-limited', 'too-slow': 'too-slow' };

/**
 * Responds before a byte of the body is read; the connection closes rather than draining it.
 * @param {Response} response
 * @param {number} status
 * @param {Record<string, string>} headers
 * @param {string} body
 */
function respondUnread(response, status, headers, body) {
  response.writeHead(status, {
    'Cache-Control': 'no-store',
    ...headers,
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  });
  response.end(body);
}

/**
 * @param {Response} response
 * @param {number} status
 * @param {string} text
 * @param {Record<string, string>} [headers]
 */
const respondText = (response, status, text, headers = {}) =>
  respondUnread(response, status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers }, `${text}\n`);

/**
 * A method the path's rule does not allow, refused 405 with its Allow; true when refused.
 * @param {Response} response
 * @param {string} method
 * @param {BodyRule} body
 */
function refusedMethod(response, method, body) {
  if (!body.allow || body.allow.includes(method)) return false;
  respondText(response, 405, 'Method Not Allowed', { Allow: body.allow.join(', ') });
  return true;
}

/**
 * Whether a post of photos added later is the scripted form's (it asks for JSON) or a browser's navigation.
 * @param {Request} request
 */
const wantsJson = (request) => String(request.headers.accept ?? '').includes('application/json');

/** The checks of one server process: it holds the process's one set of upload slots. */
export class BodyChecks {
  /** @param {{ trustProxy: boolean; words: BodyCheckWords }} options */
  constructor({ trustProxy, words }) {
    this.trustProxy = trustProxy;
    this.words = words;
    // The one set of slots for every way an upload comes in.
    this.uploadSlots = createUploadSlots();
    /** How each path of path-rules.mjs that takes a body is checked, by the rule's name. */
    this.byPath = {
      'contact-api': this.checkContactApi.bind(this),
      'contact-page': this.checkContactPage.bind(this),
      'later-photos': this.checkLaterPhotos.bind(this),
      'claim-form': this.checkClaimForm.bind(this),
      // The same small multipart form as a claim page's.
      'insurers-page': this.checkClaimForm.bind(this),
    };
  }

  /**
   * Every check on a request with a body; true when it has been responded to here. (Next's development
   * server posts to its own endpoints: server.mjs runs this in production only.)
   * @param {Request} request
   * @param {Response} response
   */
  check(request, response) {
    const method = request.method ?? 'GET';
    if (PAGE_METHODS.includes(method)) {
      guardRequestBody(request, response);
      return false;
    }
    const refusal = bodyRequestRefusal(method, request.url, [takesBody]);
    if (refusal === 'bad-path') {
      respondText(response, 400, 'Bad Request');
      return true;
    }
    if (refusal === 'method') {
      respondText(response, 405, 'Method Not Allowed', { Allow: PAGE_METHODS.join(', ') });
      return true;
    }
    const rule = bodyRuleOf(normalisedPathname(request.url) ?? '');
    if (rule?.body.takes === 'gone') {
      this.respondLaterPhotos(response, wantsJson(request), 410, 'not-found', this.words.laterPhotosRetiredPage);
      return true;
    }
    if (isCrossSiteRequest(request.headers, this.trustProxy)) {
      this.refuseCrossSite(response, rule?.body.answers === 'page');
      return true;
    }
    const checkPath = rule && this.byPath[/** @type {keyof BodyChecks['byPath']} */ (rule.name)];
    if (checkPath) return checkPath(request, response, method, rule.body);
    guardRequestBody(request, response);
    return false;
  }

  /**
   * @param {Response} response
   * @param {boolean} withPage
   */
  refuseCrossSite(response, withPage) {
    const { crossSite } = this.words.pages;
    if (withPage) this.respondWithPage(response, 403, crossSite);
    // `reason`: one of lib/contact-response.mjs's.
    else
      respondUnread(
        response,
        403,
        { 'Content-Type': 'application/json' },
        JSON.stringify({ success: false, message: crossSite.text, reason: 'cross-site' }),
      );
  }

  /**
   * @param {Response} response
   * @param {number} status
   * @param {ShortPage | undefined} page
   * @param {Record<string, string>} [headers]
   */
  respondWithPage(response, status, page, headers = {}) {
    const { pages, phone } = this.words;
    const html = refusalPage(page ?? { title: 'Error', text: '' }, { back: pages.back, call: pages.call, phone });
    respondUnread(response, status, { 'Content-Type': 'text/html; charset=utf-8', ...headers }, html);
  }

  /**
   * POST /contact, the contact form posted without script: a multipart body up to the largest enquiry,
   * by the upload gate; a short page when turned away.
   * @param {Request} request
   * @param {Response} response
   * @param {string} method
   * @param {BodyRule} body
   */
  checkContactPage(request, response, method, body) {
    if (refusedMethod(response, method, body)) return true;
    const { pages } = this.words;
    const unfit = contactPostRefusal(request.headers);
    if (unfit) {
      const page = { 'not-a-form': pages.notAForm, 'no-length': pages.noLength, 'too-large': pages.tooLarge }[unfit.reason];
      this.respondWithPage(response, unfit.status, page);
      return true;
    }
    /** @type {Record<GateRefusal, ShortPage>} */
    const gatePages = { busy: pages.busy, 'in-progress': pages.inProgress, strikes: pages.tooManyFailed, 'too-slow': pages.tooSlow };
    return admitUpload(request, response, {
      slots: this.uploadSlots,
      refuse: (refused, refusal, status, headers) => this.respondWithPage(refused, status, gatePages[refusal], headers),
    });
  }

  /**
   * POST /api/contact: JSON goes straight to Next under the body guard; an enquiry with photos
   * (multipart) comes in by the upload gate, refused as the contact route responds (`reason`: one of
   * lib/contact-response.mjs's); the form tries again by itself after a busy one.
   * @param {Request} request
   * @param {Response} response
   * @param {string} method
   */
  checkContactApi(request, response, method) {
    if (method !== 'POST' || mediaTypeOf(request.headers['content-type']) !== 'multipart/form-data') {
      guardRequestBody(request, response);
      return false;
    }
    const { responses, photoField } = this.words;
    /** @type {Record<GateRefusal, object>} */
    const gateResponses = {
      busy: { success: false, message: responses.photosBusy, reason: 'busy' },
      'in-progress': { success: false, message: responses.uploadInProgress, reason: 'busy' },
      strikes: { success: false, message: responses.tooMany, reason: 'rate-limited' },
      'too-slow': {
        success: false,
        message: responses.uploadTooSlow,
        reason: 'too-slow',
        errors: [{ path: photoField, msg: responses.uploadTooSlow }],
      },
    };
    return admitUpload(request, response, {
      slots: this.uploadSlots,
      refuse: (refused, refusal, status, headers) =>
        respondUnread(refused, status, { 'Content-Type': 'application/json', ...headers }, JSON.stringify(gateResponses[refusal])),
    });
  }

  /**
   * A claim page's form (the look-up, the staff update), posted to its page: a small multipart form.
   * @param {Request} request
   * @param {Response} response
   * @param {string} method
   * @param {BodyRule} body
   */
  checkClaimForm(request, response, method, body) {
    if (refusedMethod(response, method, body)) return true;
    const refused = claimFormPostRefusal(request.headers);
    if (refused) {
      respondText(
        response,
        refused.status,
        { 411: 'Length Required', 413: 'Payload Too Large', 415: 'Unsupported Media Type' }[refused.status],
      );
      return true;
    }
    guardRequestBody(request, response);
    return false;
  }

  /**
   * POST /claims/<reference>/photos, photos added from a claim's status page (opened by its cookie, which
   * the route checks before it reads the body): a multipart body up to the largest enquiry's, by the same
   * upload gate. The scripted form (Accept: application/json) is refused as the route responds; the form
   * posted without script, with a short page.
   * @param {Request} request
   * @param {Response} response
   * @param {string} method
   * @param {BodyRule} body
   */
  checkLaterPhotos(request, response, method, body) {
    const json = wantsJson(request);
    const { laterPhotosText, laterPhotosGatePages } = this.words;
    if (refusedMethod(response, method, body)) return true;
    const unfit = contactPostRefusal(request.headers);
    if (unfit) {
      const outcome = unfit.reason === 'too-large' ? 'too-many' : 'malformed';
      this.respondLaterPhotos(response, json, unfit.status, outcome, {
        title: laterPhotosText.heading,
        text: laterPhotosText.outcomes[outcome],
      });
      return true;
    }
    return admitUpload(request, response, {
      slots: this.uploadSlots,
      refuse: (refused, refusal, status, headers) =>
        this.respondLaterPhotos(refused, json, status, LATER_PHOTOS_GATE_REASONS[refusal], laterPhotosGatePages[refusal], headers),
    });
  }

  /**
   * A post of photos added later refused here, before Next reads any of it: JSON for the scripted form,
   * as the route responds; a short page for the form posted without script.
   * @param {Response} target
   * @param {boolean} json
   * @param {number} status
   * @param {string} reason
   * @param {ShortPage} page
   * @param {Record<string, string>} [headers]
   */
  respondLaterPhotos(target, json, status, reason, page, headers = {}) {
    if (json) {
      const retryAfter = headers['Retry-After'] ? { retryAfterSeconds: Number(headers['Retry-After']) } : {};
      const body = JSON.stringify({ success: false, message: page.text, reason, ...retryAfter });
      respondUnread(target, status, { 'Content-Type': 'application/json', ...headers }, body);
      return;
    }
    const { laterPhotosPageLinks: links, phone } = this.words;
    const html = refusalPage(page, { back: links.back, backHref: TRACK_PATH, call: links.call, phone });
    respondUnread(target, status, { 'Content-Type': 'text/html; charset=utf-8', ...headers }, html);
  }
}
