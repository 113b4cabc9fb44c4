import { servicePage, type Service } from '@/content/services/service';

export const fireSmoke: Service = {
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
  serviceType: 'Fire damage restoration',
  page: servicePage('fire-smoke', 'Fire & Smoke Damage', {
    title: 'Fire and Smoke Damage Restoration in Glasgow',
    description:
      'After a fire we secure your home, clean soot and smoke odour, rebuild what was damaged and re-test the electrics and gas, working with your insurer across Glasgow and the central belt.',
    keywords: ['fire damage restoration', 'smoke damage cleaning', 'soot removal', 'fire damage insurance claim', 'board up'],
  }),
  covers: [
    'Smoke travels through the whole house and soot is acidic: left on surfaces it stains and corrodes, and the smell comes back on the first warm day unless it is treated at the source. Heat can also damage wiring, pipework and structure out of sight.',
    'We handle everything from a chip-pan fire in the kitchen to a house that needs rebuilding: securing the property, cleaning and deodorising, stripping out what cannot be saved, structural repairs, joinery, plastering, kitchens, electrics, and decoration.',
  ],
  steps: [
    {
      title: 'Secure the property',
      text: 'Once the fire service hands the property back, we board up openings and make the structure safe.',
    },
    {
      title: 'Survey and record',
      text: 'We photograph every room, test what can be cleaned and what must be replaced, and prepare a reinstatement schedule for your insurer.',
    },
    {
      title: 'Clean and strip out',
      text: 'Specialist soot cleaning and odour treatment for what can be saved; careful strip-out of what cannot.',
    },
    {
      title: 'Rebuild and certify',
      text: 'Our tradesmen rebuild and redecorate, and the electrics and gas are tested and certified before you move back in.',
    },
  ],
  firstHours: [
    'Do not go back inside until the fire service says it is safe.',
    'Do not switch on electrics or gas appliances that may have been affected until they have been checked.',
    'Photograph the damage, and do not throw anything away before your insurer has seen it or agreed.',
    'Tell your insurer: many policies pay for somewhere to stay while your home is uninhabitable.',
    'Keep receipts for anything you have to buy, such as clothes, toiletries or a hotel.',
  ],
  insurance: [
    'Fire is covered by almost every buildings and contents policy. Larger fires are usually handled by a loss adjuster appointed by your insurer; we work with them on the scope and the programme of works.',
    'You get one point of contact from the day we secure the property to the day you move back in, and we collect only the policy excess from you.',
  ],
  damageType: 'fire-smoke',
};
