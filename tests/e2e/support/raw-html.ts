// Parses the site's own built HTML in tests (never visitor input); bounded by the page size.
/* eslint-disable regexp/no-super-linear-move */
/** Minimal reading of server-rendered HTML without a browser: the head's tags, the title, the h1, JSON-LD. */
const decode = (text: string) =>
  text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function attributes(tag: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const match of tag.matchAll(/([\w:-]+)="([^"]*)"/g)) result[match[1]!] = decode(match[2]!);
  return result;
}

export function readHtml(html: string) {
  const tags = (name: string) => [...html.matchAll(new RegExp(`<${name}\\b[^>]*>`, 'g'))].map((match) => attributes(match[0]));
  const metas = tags('meta');
  const links = tags('link');
  return {
    lang: attributes(html.match(/<html\b[^>]*>/)?.[0] ?? '').lang ?? null,
    title: decode(html.match(/<title>([^<]*)<\/title>/)?.[1] ?? ''),
    /** content of <meta name=…> or <meta property=…> */
    meta: (key: string) => metas.find((meta) => meta.name === key || meta.property === key)?.content ?? null,
    link: (rel: string) => links.find((link) => link.rel === rel)?.href ?? null,
    h1: decode((html.match(/<h1\b[^>]*>([\s\S]*?)<\/h1>/)?.[1] ?? '').replace(/<[^>]+>/g, ' '))
      .replace(/\s+/g, ' ')
      .trim(),
    jsonLd: [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
      (match) => JSON.parse(match[1]!) as Record<string, unknown>,
    ),
  };
}
