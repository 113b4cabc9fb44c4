/** One Link header value (RFC 8288), for the tests: its URL and its parameters, quoted or not. */
export function parseLinkHeader(link: string): { href: string; params: Record<string, string> } {
  const close = link.indexOf('>');
  if (!link.startsWith('<') || close < 0) throw new Error(`not a Link header: ${link}`);
  const params: Record<string, string> = {};
  let rest = link.slice(close + 1);
  while (rest.trim() !== '') {
    const separator = rest.indexOf(';');
    const equals = rest.indexOf('=', separator);
    if (separator < 0 || equals < 0) throw new Error(`not a Link header parameter: ${rest}`);
    const name = rest.slice(separator + 1, equals).trim();
    rest = rest.slice(equals + 1);
    if (rest.startsWith('"')) {
      const end = rest.indexOf('"', 1);
      if (end < 0) throw new Error(`an unclosed quote in: ${link}`);
      params[name] = rest.slice(1, end);
      rest = rest.slice(end + 1);
    } else {
      const end = rest.indexOf(';');
      params[name] = (end < 0 ? rest : rest.slice(0, end)).trim();
      rest = end < 0 ? '' : rest.slice(end);
    }
  }
  return { href: link.slice(1, close), params };
}
