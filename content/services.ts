/** The services page's own copy around the six cards. */
export const servicesPage = {
  title: 'Our Services',
  eyebrow: 'Insurance repairs and reinstatement',
  intro:
    'Whatever has happened to your home, our directly employed tradesmen make it safe, carry out the repair and deal with your insurer along the way. These are the six kinds of claim we handle every week across Glasgow and the central belt.',
  cta: {
    heading: 'Not sure whether your damage is covered?',
    text: 'Tell us what has happened and we will explain how the claim is likely to work, or arrange a survey for your insurer.',
    contactLabel: 'Contact us',
  },
} as const;

export type Service = {
  id: string;
  title: string;
  summary: string;
  /** What the work typically includes, shown as a list on the card. */
  includes: readonly string[];
};

/** The six services of the spec, in the spec's order and with its exact titles. */
export const services: readonly Service[] = [
  {
    id: 'water-damage',
    title: 'Water Damage Restoration',
    summary:
      'Burst pipes, leaking appliances and overflowing baths soak into ceilings, floors and walls long before the damage shows. We trace the source, dry the building out properly with moisture readings to prove it, then strip out and reinstate only what cannot be saved.',
    includes: [
      'Trace and access to find hidden leaks',
      'Dehumidifiers and air movers with drying records for your insurer',
      'Ceiling, plaster and flooring replacement',
      'Kitchen and bathroom reinstatement',
    ],
  },
  {
    id: 'storm-weather',
    title: 'Storm & Weather Damage',
    summary:
      'Scottish winters test every roof and chimney. When high winds, heavy rain or snow load damage your home, we make it safe and watertight first, then repair the roof coverings, leadwork, gutters and any water damage inside.',
    includes: [
      'Emergency tarpaulins and temporary weatherproofing',
      'Slate and tile roofs, ridges, flashings and chimneys',
      'Fallen trees, fences and garden walls',
      'Internal repairs after water ingress',
    ],
  },
  {
    id: 'fire-smoke',
    title: 'Fire & Smoke Damage',
    summary:
      'Even a small kitchen fire leaves soot, smoke odour and heat damage far beyond the room where it started. We secure the property, clean or strip out affected materials and rebuild, with electrics and gas re-tested before you move back in.',
    includes: [
      'Securing and boarding up the property',
      'Soot cleaning and odour treatment',
      'Structural repairs, joinery and replastering',
      'Electrical and gas safety certificates',
    ],
  },
  {
    id: 'vandalism-malicious',
    title: 'Vandalism & Malicious Damage',
    summary:
      'Break-ins and deliberate damage are distressing, and the first priority is making your home secure again. We board up and change locks the same day, then repair doors, windows and finishes so nothing is left to remind you.',
    includes: [
      'Same-day board-up and lock changes',
      'Door and window repair or replacement',
      'Graffiti removal and redecoration',
      'Photographic records to support your claim',
    ],
  },
  {
    id: 'impact-accidental',
    title: 'Impact & Accidental Damage',
    summary:
      'A vehicle through a wall, a dropped tool through a sink, a fallen wardrobe through a ceiling: accidents happen. We assess the structure, carry out any propping needed and reinstate the damage to match the rest of your home.',
    includes: [
      'Structural assessment and temporary propping',
      'Brickwork, stonework and roughcast matched to the original',
      'Sanitaryware, worktops and flooring',
      'Plastering and decoration',
    ],
  },
  {
    id: 'claims-support',
    title: 'Insurance Claims Support',
    summary:
      'Most homeowners make an insurance claim once or twice in a lifetime; we work with insurers, loss adjusters and repair networks every day. We prepare the reinstatement schedule, photographs and reports your insurer needs and keep you informed from survey to sign-off.',
    includes: [
      'Surveys with photographs and cause of damage',
      'Itemised reinstatement schedules',
      'Liaison with your insurer, loss adjuster or network',
      'One point of contact from start to finish',
    ],
  },
];

export type ServiceGroup = {
  id: 'restoration' | 'building' | 'specialist';
  title: string;
  items: readonly string[];
};

/** The trades behind the six services, grouped as the sitemap page lists them. */
export const serviceGroups: readonly ServiceGroup[] = [
  {
    id: 'restoration',
    title: 'Restoration',
    items: [
      'Water damage restoration',
      'Fire and smoke damage restoration',
      'Storm and weather damage repairs',
      'Drying and dehumidification',
      'Soot cleaning and odour treatment',
    ],
  },
  {
    id: 'building',
    title: 'Building',
    items: [
      'Joinery and carpentry',
      'Plastering and drylining',
      'Roofing, leadwork and roughcasting',
      'Brickwork and stonework',
      'Plumbing and heating',
      'Electrical work',
      'Painting and decorating',
      'Flooring and tiling',
      'Kitchen and bathroom reinstatement',
    ],
  },
  {
    id: 'specialist',
    title: 'Specialist',
    items: [
      'Trace and access leak detection',
      'Emergency board-up and making safe',
      'Vandalism and malicious damage repairs',
      'Impact and accidental damage repairs',
      'Insurance claims support and reinstatement schedules',
    ],
  },
];
