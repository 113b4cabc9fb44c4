// Draws the site's own placeholder artwork and renders the raster icons and the default social image.
// Run: npx tsx scripts/generate-images.ts   (outputs are committed; rerun after changing a drawing)
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import sharp from 'sharp';
import { accreditations } from '../content/accreditations';
import { business } from '../content/business';
import { pages } from '../content/pages';
import { services } from '../content/services';

const NAVY = '#0a2c47';
const NAVY_DARK = '#061c2e';
const BLUE = '#0e3a5c';
const AMBER = '#fbbf24';

function write(path: string, data: string | Buffer) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
  console.log(`wrote ${path}`);
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The house mark of the placeholder logo, drawn in a 96-unit box. */
const houseMark = (fill: string) => `<path d="M20 50 48 26l28 24v24H56V58H40v16H20z" fill="${fill}"/>`;

// Neutral accreditation badges: a rounded frame, a simple emblem and the scheme's name, marked PLACEHOLDER.
const emblems = [
  // tick in a circle, star, shield, square with a check, house
  `<circle cx="30" cy="38" r="16" fill="${BLUE}"/><path d="m22 38 5 5 10-11" fill="none" stroke="${AMBER}" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/>`,
  `<path d="M30 20l5 10 11 1.6-8 7.8 1.9 11L30 45l-9.9 5.4L22 39.4l-8-7.8L25 30z" fill="${BLUE}"/>`,
  `<path d="M30 18l16 6v12c0 11-7 19-16 23-9-4-16-12-16-23V24z" fill="${BLUE}"/>`,
  `<rect x="15" y="23" width="30" height="30" rx="6" fill="${BLUE}"/><path d="m22 38 5 5 10-11" fill="none" stroke="${AMBER}" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/>`,
  `<path d="M14 40 30 24l16 16v16H14z" fill="${BLUE}"/><rect x="26" y="44" width="8" height="12" fill="${AMBER}"/>`,
];

function accreditationSvg(name: string, index: number) {
  const words = name.split(' ');
  const lines =
    words.length > 1 ? [words.slice(0, Math.ceil(words.length / 2)).join(' '), words.slice(Math.ceil(words.length / 2)).join(' ')] : [name];
  // Bold sans glyphs average about 0.62 em; keep the longest line inside the 96 units right of the emblem.
  const size = Math.min(14, Math.floor(96 / (Math.max(...lines.map((line) => line.length)) * 0.62)));
  const text = lines
    .map(
      (line, i) =>
        `<text x="58" y="${lines.length === 1 ? 44 : 36 + i * 17}" font-family="sans-serif" font-size="${size}" font-weight="700" fill="${NAVY}">${escapeXml(line)}</text>`,
    )
    .join('\n  ');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 80" role="img" aria-label="${escapeXml(name)} badge placeholder">
  <title>${escapeXml(name)} badge (placeholder: replace with the scheme's own artwork)</title>
  <rect x="1" y="1" width="158" height="78" rx="10" fill="#fff" stroke="${NAVY}" stroke-width="2"/>
  ${emblems[index % emblems.length]}
  ${text}
  <text x="58" y="68" font-family="sans-serif" font-size="8" fill="#334155">PLACEHOLDER</text>
</svg>
`;
}

// The fleet illustration: a liveried panel van on a road, in the brand colours.
const fleetSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 960 600" role="img" aria-label="Liveried company van (placeholder illustration)">
  <title>Company van (placeholder illustration: replace with a photograph of the fleet)</title>
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#d6e6f4"/><stop offset="1" stop-color="#eef5fb"/></linearGradient>
  </defs>
  <rect width="960" height="600" fill="url(#sky)"/>
  <path d="M0 380 120 300l90 50 130-90 140 100 110-70 150 90 110-60 110 70v140H0z" fill="#b8cfe4"/>
  <rect y="440" width="960" height="160" fill="#475569"/>
  <path d="M0 520h960" stroke="#f8fafc" stroke-width="8" stroke-dasharray="60 40"/>
  <g transform="translate(170 200)">
    <path d="M20 30q0-20 20-20h380q18 0 30 12l110 98q20 8 20 30v80q0 20-20 20H40q-20 0-20-20z" fill="#ffffff" stroke="${NAVY}" stroke-width="6" stroke-linejoin="round"/>
    <path d="M440 34 542 124H440z" fill="#9cc3e6" stroke="${NAVY}" stroke-width="6" stroke-linejoin="round"/>
    <path d="M425 20v228" stroke="${NAVY}" stroke-width="4"/>
    <rect x="20" y="178" width="560" height="26" fill="${NAVY}"/>
    <rect x="20" y="204" width="560" height="8" fill="${AMBER}"/>
    <g transform="translate(30 56) scale(0.9)">${houseMark(NAVY)}</g>
    <text x="112" y="104" font-family="sans-serif" font-size="27" font-weight="700" fill="${NAVY}">${escapeXml(business.name)}</text>
    <text x="112" y="136" font-family="sans-serif" font-size="17" fill="${BLUE}">Insurance repairs · ${escapeXml(business.phone.display)}</text>
    <rect x="560" y="146" width="26" height="16" rx="4" fill="${AMBER}"/>
    <circle cx="140" cy="250" r="44" fill="#1e293b"/><circle cx="140" cy="250" r="18" fill="#cbd5e1"/>
    <circle cx="480" cy="250" r="44" fill="#1e293b"/><circle cx="480" cy="250" r="18" fill="#cbd5e1"/>
  </g>
  <text x="940" y="584" font-family="sans-serif" font-size="18" fill="#f8fafc" text-anchor="end">PLACEHOLDER ILLUSTRATION</text>
</svg>
`;

// The site icon: the placeholder logo's house mark on navy.
const iconSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96">
  <rect width="96" height="96" rx="16" fill="${NAVY}"/>
  ${houseMark(AMBER)}
</svg>
`;
// Touch and manifest icons are full-bleed squares: the platform applies its own mask.
const squareIconSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96">
  <rect width="96" height="96" fill="${NAVY}"/>
  <g transform="translate(9.6 9.6) scale(0.8)">${houseMark(AMBER)}</g>
</svg>
`;

const ogSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <rect width="1200" height="630" fill="${NAVY}"/>
  <rect y="560" width="1200" height="70" fill="${NAVY_DARK}"/>
  <rect y="552" width="1200" height="8" fill="${AMBER}"/>
  <g transform="translate(80 70) scale(1.6)"><rect width="96" height="96" rx="16" fill="${NAVY_DARK}"/>${houseMark(AMBER)}</g>
  <text x="260" y="160" font-family="DejaVu Sans, sans-serif" font-size="56" font-weight="700" fill="#ffffff">${escapeXml(business.name)}</text>
  <text x="260" y="215" font-family="DejaVu Sans, sans-serif" font-size="30" fill="#d6e6f4">Cumbernauld · Glasgow · Central Scotland</text>
  <text x="80" y="370" font-family="DejaVu Sans, sans-serif" font-size="72" font-weight="700" fill="#ffffff">Expert Insurance Repairs</text>
  <text x="80" y="460" font-family="DejaVu Sans, sans-serif" font-size="72" font-weight="700" fill="${AMBER}">Minimal Disruption</text>
  <text x="80" y="605" font-family="DejaVu Sans, sans-serif" font-size="28" fill="#ffffff">Over ${business.yearsExperience} years · Directly employed tradesmen · ${escapeXml(business.phone.display)}</text>
</svg>
`;

/** A page's own social image: the brand band, the page's heading (on two lines when long) and a line under it. */
function pageOgSvg(heading: string, subline: string) {
  const words = heading.split(' ');
  const split = Math.ceil(words.length / 2);
  const lines = heading.length > 22 ? [words.slice(0, split).join(' '), words.slice(split).join(' ')] : [heading];
  const text = lines
    .map(
      (line, index) =>
        `<text x="80" y="${lines.length === 1 ? 420 : 370 + index * 90}" font-family="DejaVu Sans, sans-serif" font-size="72" font-weight="700" fill="${index === lines.length - 1 ? AMBER : '#ffffff'}">${escapeXml(line)}</text>`,
    )
    .join('\n  ');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <rect width="1200" height="630" fill="${NAVY}"/>
  <rect y="560" width="1200" height="70" fill="${NAVY_DARK}"/>
  <rect y="552" width="1200" height="8" fill="${AMBER}"/>
  <g transform="translate(80 70) scale(1.6)"><rect width="96" height="96" rx="16" fill="${NAVY_DARK}"/>${houseMark(AMBER)}</g>
  <text x="260" y="160" font-family="DejaVu Sans, sans-serif" font-size="56" font-weight="700" fill="#ffffff">${escapeXml(business.name)}</text>
  <text x="260" y="215" font-family="DejaVu Sans, sans-serif" font-size="30" fill="#d6e6f4">${escapeXml(subline)}</text>
  ${text}
  <text x="80" y="605" font-family="DejaVu Sans, sans-serif" font-size="28" fill="#ffffff">Glasgow · Cumbernauld · Central Scotland · ${escapeXml(business.phone.display)}</text>
</svg>
`;
}

async function png(svg: string, size: { width: number; height: number }, path: string) {
  const buffer = await sharp(Buffer.from(svg), { density: 300 }).resize(size.width, size.height).png({ compressionLevel: 9 }).toBuffer();
  write(path, buffer);
}

accreditations.forEach((accreditation, index) => {
  // The Safe Contractor placeholder was drawn by hand; keep it.
  if (accreditation.id === 'safe-contractor') return;
  write(`public${accreditation.logo}`, accreditationSvg(accreditation.name, index));
});
write('public/images/fleet-placeholder.svg', fleetSvg);
write('app/icon.svg', iconSvg);
await png(squareIconSvg, { width: 180, height: 180 }, 'app/apple-icon.png');
await png(squareIconSvg, { width: 192, height: 192 }, 'public/icons/icon-192.png');
await png(squareIconSvg, { width: 512, height: 512 }, 'public/icons/icon-512.png');
await png(ogSvg, { width: 1200, height: 630 }, 'public/og/default.png');
for (const service of services) {
  await png(pageOgSvg(service.title, 'Insurance repairs'), { width: 1200, height: 630 }, `public${service.page.image.path}`);
}
await png(
  pageOgSvg('Insurers and Loss Adjusters', 'Insurance reinstatement'),
  { width: 1200, height: 630 },
  `public${pages.insurers.image!.path}`,
);
