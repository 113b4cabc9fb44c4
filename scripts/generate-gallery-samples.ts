/**
 * Draws the built-in gallery's sample media (our own placeholder drawings, every file named
 * "*-sample.*") and writes the samples manifest. Run once by a developer; the outputs are committed,
 * so neither the build nor the site needs ffmpeg:
 *   npx tsx scripts/generate-gallery-samples.ts
 * It installs ffmpeg with apt only when it is missing (for the short sample video).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

const W = 1200;
const H = 900;
const mediaDir = 'media/gallery';
const publicDir = 'public/gallery/samples';

const label = (text: string) => `
  <g font-family="DejaVu Sans, Arial, sans-serif" font-weight="700">
    <rect x="28" y="28" rx="10" width="${170 + text.length * 14}" height="56" fill="#0a2c47" opacity="0.85"/>
    <text x="48" y="66" font-size="26" fill="#fbbf24">SAMPLE</text>
    <text x="184" y="66" font-size="24" fill="#fff">${text}</text>
  </g>`;

const svg = (body: string, caption: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${body}${label(caption)}</svg>`;

const sky = (top = '#9cc9ec', bottom = '#e6f2fb') => `
  <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient></defs>
  <rect width="${W}" height="${H}" fill="url(#sky)"/>`;

function bricks(x: number, y: number, w: number, h: number, colour = '#a4493d') {
  let out = `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#d8cfc4"/>`;
  const bw = 60;
  const bh = 26;
  for (let row = 0; row * bh < h; row += 1) {
    const offset = row % 2 ? bw / 2 : 0;
    for (let bx = -offset; bx < w; bx += bw) {
      const left = Math.max(x, x + bx + 2);
      const right = Math.min(x + w, x + bx + bw - 2);
      const shade = ((row * 7 + Math.round(bx)) % 3) * 8;
      if (right > left)
        out += `<rect x="${left}" y="${y + row * bh + 2}" width="${right - left}" height="${Math.min(bh - 4, h - row * bh - 2)}" fill="${colour}" opacity="${0.82 + shade / 100}"/>`;
    }
  }
  return out;
}

function slates(x: number, y: number, w: number, rows: number, shown = rows) {
  let out = '';
  for (let row = 0; row < Math.min(rows, shown); row += 1) {
    const offset = row % 2 ? 30 : 0;
    for (let sx = -offset; sx < w; sx += 60) {
      const tone = ['#3d4a57', '#465463', '#36424e'][(row + Math.round(sx / 60)) % 3];
      out += `<rect x="${Math.max(x, x + sx + 2)}" y="${y + row * 34}" width="${Math.min(56, x + w - Math.max(x, x + sx + 2))}" height="40" rx="3" fill="${tone}" stroke="#2a333c" stroke-width="2"/>`;
    }
  }
  return out;
}

const room = (wall: string, floor: string) => `
  <rect width="${W}" height="${H}" fill="${wall}"/>
  <polygon points="0,0 ${W},0 1000,140 200,140" fill="#f4f1ea"/>
  <polygon points="0,${H} ${W},${H} 1000,700 200,700" fill="${floor}"/>
  <polygon points="0,0 200,140 200,700 0,${H}" fill="#000" opacity="0.08"/>
  <polygon points="${W},0 1000,140 1000,700 ${W},${H}" fill="#000" opacity="0.12"/>`;

function floorboards() {
  let out = room('#e9e1d3', '#b9875a');
  for (let i = 0; i <= 16; i += 1) {
    const bottom = (W / 16) * i;
    const top = 200 + (800 / 16) * i;
    out += `<line x1="${top}" y1="700" x2="${bottom}" y2="${H}" stroke="#8a5f3b" stroke-width="3"/>`;
  }
  return out + `<rect x="520" y="230" width="160" height="470" fill="#6d4c33"/><circle cx="660" cy="470" r="8" fill="#e0b64a"/>`;
}

function tiles() {
  let out = room('#dfe9ee', '#9aa6ad');
  for (let ty = 150; ty < 700; ty += 50)
    for (let tx = 210; tx < 1000; tx += 50) out += `<rect x="${tx}" y="${ty}" width="46" height="46" fill="#f8fbfc" stroke="#b8c9d2"/>`;
  return (
    out +
    `<rect x="250" y="520" width="620" height="150" rx="24" fill="#fff" stroke="#c9d3d8" stroke-width="6"/><rect x="820" y="380" width="12" height="140" fill="#a9b4ba"/>`
  );
}

function kitchen(units: string, worktop: string) {
  let out = room('#efe6d8', '#c8b9a3');
  for (let ux = 220; ux < 980; ux += 150) {
    out += `<rect x="${ux}" y="480" width="140" height="210" rx="6" fill="${units}"/><rect x="${ux + 55}" y="500" width="30" height="8" rx="4" fill="#d9d9d9"/>`;
    out += `<rect x="${ux}" y="180" width="140" height="170" rx="6" fill="${units}"/>`;
  }
  return (
    out +
    `<rect x="205" y="455" width="790" height="30" fill="${worktop}"/><circle cx="600" cy="40" r="26" fill="#fde68a"/><line x1="600" y1="0" x2="600" y2="18" stroke="#555" stroke-width="4"/>`
  );
}

function lounge() {
  return (
    room('#dde4d6', '#8f7a66') +
    `<rect x="420" y="200" width="360" height="220" fill="#cfe3f1" stroke="#fff" stroke-width="14"/><line x1="600" y1="200" x2="600" y2="420" stroke="#fff" stroke-width="10"/>
     <rect x="330" y="520" width="540" height="140" rx="30" fill="#355c7d"/><rect x="300" y="500" width="80" height="170" rx="30" fill="#2c4d69"/><rect x="820" y="500" width="80" height="170" rx="30" fill="#2c4d69"/>
     <rect x="400" y="480" width="180" height="70" rx="20" fill="#46739a"/><rect x="620" y="480" width="180" height="70" rx="20" fill="#46739a"/>`
  );
}

function house(roofRows = 8) {
  return (
    sky() +
    `<rect y="760" width="${W}" height="140" fill="#6aa84f"/>` +
    bricks(250, 420, 700, 340, '#b4574a') +
    `<polygon points="220,430 600,130 980,430" fill="#2a333c"/>` +
    `<clipPath id="roof"><polygon points="226,428 600,136 974,428"/></clipPath><g clip-path="url(#roof)">${slates(220, 130, 760, 9, roofRows)}</g>` +
    `<rect x="540" y="600" width="120" height="160" fill="#0e3a5c"/><rect x="320" y="520" width="150" height="110" fill="#cfe3f1" stroke="#fff" stroke-width="10"/><rect x="730" y="520" width="150" height="110" fill="#cfe3f1" stroke="#fff" stroke-width="10"/>`
  );
}

function chimney() {
  return (
    sky('#7fb3dc', '#dcecf8') +
    `<polygon points="0,900 0,520 1200,260 1200,900" fill="#2a333c"/><clipPath id="r2"><polygon points="0,900 0,520 1200,260 1200,900"/></clipPath><g clip-path="url(#r2)" transform="rotate(-12 600 600)">${slates(-200, 380, 1600, 16)}</g>` +
    bricks(520, 150, 200, 300, '#9c4a3c') +
    `<rect x="500" y="130" width="240" height="30" fill="#7d7d7d"/><rect x="560" y="80" width="44" height="56" fill="#c26a3b"/><rect x="636" y="80" width="44" height="56" fill="#c26a3b"/>
     <polygon points="500,450 740,400 740,430 500,480" fill="#9ca3af"/>`
  );
}

function gardenWall() {
  return (
    sky() +
    `<rect y="650" width="${W}" height="250" fill="#6aa84f"/>` +
    bricks(0, 430, 480, 240, '#a14a3b') +
    bricks(720, 430, 480, 240, '#a14a3b') +
    `<rect x="0" y="410" width="480" height="26" fill="#8d8d8d"/><rect x="720" y="410" width="480" height="26" fill="#8d8d8d"/>
     <rect x="470" y="380" width="40" height="300" fill="#8d8d8d"/><rect x="690" y="380" width="40" height="300" fill="#8d8d8d"/>
     <g stroke="#1f2937" stroke-width="8">${[520, 560, 600, 640, 680].map((x) => `<line x1="${x}" y1="450" x2="${x}" y2="670"/>`).join('')}<line x1="510" y1="470" x2="690" y2="470"/><line x1="510" y1="650" x2="690" y2="650"/></g>`
  );
}

type Sample = {
  _id: string;
  title: string;
  category: string;
  description: string;
  tags: string[];
  file: string;
  draw: () => string;
  serve: 'imageUrl' | 's3Key';
};

const samples: Sample[] = [
  {
    _id: 'sample-kitchen-ceiling',
    title: 'Kitchen ceiling after a burst pipe',
    category: 'Water Damage',
    description:
      'Sample placeholder drawing: a kitchen ceiling re-boarded, skimmed and painted after an escape of water from the bathroom above.',
    tags: ['sample', 'ceiling', 'escape of water'],
    file: 'kitchen-ceiling-sample.webp',
    draw: () => svg(kitchen('#f3f4f6', '#6b7280'), 'Kitchen ceiling'),
    serve: 'imageUrl',
  },
  {
    _id: 'sample-hallway-floor',
    title: 'Hallway floor relaid',
    category: 'Water Damage',
    description: 'Sample placeholder drawing: swollen floorboards lifted, the subfloor dried out and a new oak-effect floor laid.',
    tags: ['sample', 'flooring', 'drying'],
    file: 'hallway-floor-sample.webp',
    draw: () => svg(floorboards(), 'Hallway floor'),
    serve: 's3Key',
  },
  {
    _id: 'sample-bathroom-tiles',
    title: 'Bathroom re-tiled after a leak',
    category: 'Water Damage',
    description: 'Sample placeholder drawing: a leaking bath seal traced, the wall dried and the bathroom re-tiled and re-sealed.',
    tags: ['sample', 'bathroom', 'tiling'],
    file: 'bathroom-tiles-sample.webp',
    draw: () => svg(tiles(), 'Bathroom tiles'),
    serve: 'imageUrl',
  },
  {
    _id: 'sample-slate-roof',
    title: 'Slate roof repaired after a storm',
    category: 'Storm Damage',
    description: 'Sample placeholder drawing: slipped and broken slates replaced to match after high winds.',
    tags: ['sample', 'roofing', 'slates'],
    file: 'slate-roof-sample.jpg',
    draw: () => svg(house(), 'Slate roof'),
    serve: 's3Key',
  },
  {
    _id: 'sample-chimney-flashing',
    title: 'Chimney flashing renewed',
    category: 'Storm Damage',
    description: 'Sample placeholder drawing: storm-damaged lead flashing around a chimney stack replaced and the stack repointed.',
    tags: ['sample', 'chimney', 'leadwork'],
    file: 'chimney-flashing-sample.webp',
    draw: () => svg(chimney(), 'Chimney flashing'),
    serve: 'imageUrl',
  },
  {
    _id: 'sample-roof-timelapse',
    title: 'Re-slating a roof, start to finish',
    category: 'Storm Damage',
    description: 'Sample placeholder animation: a few seconds showing a storm-stripped roof being re-slated row by row.',
    tags: ['sample', 'video', 'roofing'],
    file: 'roof-timelapse-sample.mp4',
    draw: () => '',
    serve: 's3Key',
  },
  {
    _id: 'sample-lounge-redecorated',
    title: 'Smoke-stained lounge redecorated',
    category: 'Fire & Smoke',
    description: 'Sample placeholder drawing: soot cleaned from every surface, stains sealed and the lounge repainted.',
    tags: ['sample', 'smoke', 'decorating'],
    file: 'lounge-redecorated-sample.webp',
    draw: () => svg(lounge(), 'Lounge'),
    serve: 's3Key',
  },
  {
    _id: 'sample-kitchen-refit',
    title: 'Fire-damaged kitchen refitted',
    category: 'Fire & Smoke',
    description: 'Sample placeholder drawing: a kitchen stripped out after a pan fire and refitted with new units and worktops.',
    tags: ['sample', 'kitchen', 'fire'],
    file: 'kitchen-refit-sample.webp',
    draw: () => svg(kitchen('#0e3a5c', '#d6c29a'), 'Kitchen refit'),
    serve: 'imageUrl',
  },
  {
    _id: 'sample-garden-wall',
    title: 'Garden wall rebuilt after a vehicle impact',
    category: 'Impact Damage',
    description: 'Sample placeholder drawing: a boundary wall and gate pier rebuilt in matching brick after a car struck it.',
    tags: ['sample', 'brickwork', 'impact'],
    file: 'garden-wall-sample.webp',
    draw: () => svg(gardenWall(), 'Garden wall'),
    serve: 's3Key',
  },
];

function ensureFfmpeg() {
  if (spawnSync('ffmpeg', ['-version']).status === 0) return;
  console.log('ffmpeg is missing: installing it with apt (needed here only, never by the site).');
  const install = spawnSync(
    'bash',
    ['-c', 'apt-get install -y --no-install-recommends ffmpeg || sudo apt-get install -y --no-install-recommends ffmpeg'],
    { stdio: 'inherit' },
  );
  if (install.status !== 0) throw new Error('Could not install ffmpeg');
}

async function renderVideo(target: string) {
  ensureFfmpeg();
  const frames = mkdtempSync(path.join(tmpdir(), 'gallery-frames-'));
  const count = 48; // 4 s at 12 fps
  try {
    for (let frame = 0; frame < count; frame += 1) {
      const rows = Math.min(9, Math.floor((frame / (count - 8)) * 10));
      const art = svg(house(rows), 'Re-slating time-lapse');
      await sharp(Buffer.from(art))
        .resize(640, 480)
        .png()
        .toFile(path.join(frames, `f${String(frame).padStart(3, '0')}.png`));
    }
    const result = spawnSync(
      'ffmpeg',
      [
        '-y',
        '-loglevel',
        'error',
        '-framerate',
        '12',
        '-i',
        path.join(frames, 'f%03d.png'),
        '-c:v',
        'libx264',
        '-profile:v',
        'baseline',
        '-level',
        '3.0',
        '-pix_fmt',
        'yuv420p',
        '-crf',
        '30',
        '-preset',
        'veryslow',
        '-movflags',
        '+faststart',
        '-an',
        target,
      ],
      { stdio: 'inherit' },
    );
    if (result.status !== 0) throw new Error('ffmpeg failed');
  } finally {
    rmSync(frames, { recursive: true, force: true });
  }
}

mkdirSync(path.join(mediaDir, 'samples'), { recursive: true });
mkdirSync(publicDir, { recursive: true });

const manifestItems: Record<string, unknown>[] = [];
for (const sample of samples) {
  const target = sample.serve === 'imageUrl' ? path.join(publicDir, sample.file) : path.join(mediaDir, 'samples', sample.file);
  // A video gets a still frame too (its finished last frame), shown on phones instead of the video.
  const posterFile = sample.file.endsWith('.mp4') ? sample.file.replace(/\.mp4$/, '.poster.jpg') : undefined;
  if (posterFile) {
    await sharp(Buffer.from(svg(house(9), 'Re-slating time-lapse')))
      .resize(640, 480)
      .jpeg({ quality: 78, mozjpeg: true })
      .toFile(path.join(mediaDir, 'samples', posterFile));
  }
  if (sample.file.endsWith('.mp4')) await renderVideo(target);
  else if (sample.file.endsWith('.jpg')) await sharp(Buffer.from(sample.draw())).jpeg({ quality: 78, mozjpeg: true }).toFile(target);
  else await sharp(Buffer.from(sample.draw())).webp({ quality: 78 }).toFile(target);
  console.log(`${target}  ${(statSync(target).size / 1024).toFixed(1)} KB`);
  const mimeType = sample.file.endsWith('.mp4') ? 'video/mp4' : sample.file.endsWith('.jpg') ? 'image/jpeg' : 'image/webp';
  manifestItems.push({
    _id: sample._id,
    title: sample.title,
    category: sample.category,
    description: sample.description,
    tags: sample.tags,
    mimeType,
    ...(sample.serve === 'imageUrl' ? { imageUrl: `/gallery/samples/${sample.file}` } : { s3Key: `samples/${sample.file}` }),
    filename: sample.file,
    ...(posterFile ? { posterKey: `samples/${posterFile}` } : {}),
  });
}

// One record whose file never arrived: exercises the 'No Media' placeholder.
manifestItems.push({
  _id: 'sample-bay-window-survey',
  title: 'Bay window survey record',
  category: 'Impact Damage',
  description: 'Sample record without media: the survey photographs of this bay window have not been uploaded yet.',
  tags: ['sample', 'survey'],
  mimeType: 'image/jpeg',
  filename: 'bay-window-survey-sample.jpg',
});

writeFileSync(path.join(mediaDir, 'manifest.json'), `${JSON.stringify({ version: 1, items: manifestItems, hidden: [] }, null, 2)}\n`);
console.log(`${path.join(mediaDir, 'manifest.json')}  ${manifestItems.length} items`);
