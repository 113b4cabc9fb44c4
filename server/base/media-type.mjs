// The one reader of a Content-Type header (RFC 9110 §8.3.1): `type/subtype` and its parameters, for
// server.mjs (no compile step: plain JavaScript typed by JSDoc) and the route handlers alike.
// Node's util.MIMEType would fit, but it is still marked experimental, and it throws on what a
// client may send; this one answers undefined instead.

/** RFC 9110's token: the characters a type, a subtype and a parameter's name are made of. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * @typedef {{ type: string; parameters: Map<string, string> }} MediaType
 * `type`: `type/subtype`, lower-case (`multipart/form-data`); `parameters`: by lower-case name, the
 * value as sent (quotes and backslash escapes removed). A malformed parameter is left out, as is a
 * second one of the same name.
 */

/**
 * The media type a Content-Type header names, or undefined when there is none or it is not
 * `type/subtype` made of tokens.
 * @param {string | null | undefined} header
 * @returns {MediaType | undefined}
 */
export function parseMediaType(header) {
  if (typeof header !== 'string') return undefined;
  const semicolon = header.indexOf(';');
  const essence = (semicolon === -1 ? header : header.slice(0, semicolon)).trim();
  const [type, subtype, ...rest] = essence.split('/');
  if (!type || !subtype || rest.length > 0 || !TOKEN.test(type) || !TOKEN.test(subtype)) return undefined;
  /** @type {Map<string, string>} */
  const parameters = new Map();
  let at = semicolon === -1 ? header.length : semicolon;
  while (at < header.length) {
    // `at` is on a `;`: a parameter's name runs to `=` (or the next `;`, which makes it malformed).
    const end = nextOf(header, ';=', at + 1);
    const name = header
      .slice(at + 1, end)
      .trim()
      .toLowerCase();
    if (header[end] !== '=') {
      at = end;
      continue;
    }
    let value;
    if (header[end + 1] === '"') {
      value = '';
      let i = end + 2;
      for (; i < header.length && header[i] !== '"'; i++) {
        if (header[i] === '\\' && i + 1 < header.length) i++;
        value += header[i];
      }
      at = nextOf(header, ';', i);
      if (header[i] !== '"' || header.slice(i + 1, at).trim() !== '') value = undefined;
    } else {
      at = nextOf(header, ';', end + 1);
      value = header.slice(end + 1, at).trim();
      if (!TOKEN.test(value)) value = undefined;
    }
    if (value !== undefined && TOKEN.test(name) && !parameters.has(name)) parameters.set(name, value);
  }
  return { type: `${type}/${subtype}`.toLowerCase(), parameters };
}

/**
 * Where the first of the characters `stops` is in text from `from` on, or text's length.
 * @param {string} text
 * @param {string} stops
 * @param {number} from
 */
function nextOf(text, stops, from) {
  let i = from;
  while (i < text.length && !stops.includes(/** @type {string} */ (text[i]))) i++;
  return i;
}

/**
 * The `type/subtype` a Content-Type header names, lower-case and without parameters
 * (`multipart/form-data`), or undefined.
 * @param {string | null | undefined} header
 */
export const mediaTypeOf = (header) => parseMediaType(header)?.type;
