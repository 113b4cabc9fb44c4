import { servicePage, type Service } from '@/content/services/service';

export const impactAccidental: Service = {
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
  serviceType: 'Impact and accidental damage repair',
  page: servicePage('impact-accidental', 'Impact & Accidental Damage', {
    title: 'Impact and Accidental Damage Repairs in Glasgow',
    description:
      'Vehicle impact, a fallen tree or an accident in the home: we make the structure safe, then repair brickwork, stonework, ceilings and fittings to match, across Glasgow and the central belt.',
    keywords: [
      'impact damage repair',
      'vehicle impact',
      'accidental damage repairs',
      'structural repairs',
      'accidental damage insurance claim',
    ],
  }),
  covers: [
    'Impact damage ranges from a car that has left the road and hit a garden wall or gable, to a foot through a loft ceiling or a dropped pan through a ceramic hob. Where the structure has been hit, the first question is whether it is safe.',
    'We assess and prop the structure where needed, then rebuild brickwork and stonework, match roughcast, and repair ceilings, worktops, sanitaryware and flooring so the repair cannot be picked out.',
  ],
  steps: [
    {
      title: 'Make safe',
      text: 'Where walls or openings have been struck, we assess them and put in temporary propping or barriers straight away.',
    },
    {
      title: 'Survey',
      text: 'Our surveyor records the cause and the extent of the damage with photographs and, where a structural engineer is needed, arranges one.',
    },
    {
      title: 'Rebuild to match',
      text: 'Stone, brick, roughcast and finishes are matched to the original; our own tradesmen carry out every stage.',
    },
    {
      title: 'Finish and sign off',
      text: 'Plastering and decoration, then a walk round with you before we sign the work off.',
    },
  ],
  firstHours: [
    'Keep everyone away from walls, chimneys or ceilings that have been struck or are cracked.',
    'If a vehicle was involved, get the driver’s details and registration and tell the police where required: their insurer may pay for the repair.',
    'Photograph the damage and anything that caused it.',
    'Tell your insurer and note the claim number; keep receipts for emergency work.',
  ],
  insurance: [
    'Impact by vehicles, animals and falling trees is covered by most buildings policies. Accidental damage inside the home, such as a broken sink or a foot through a ceiling, is often an optional extra: check your policy schedule or ask your insurer.',
    'When another party’s insurer is paying, for example a driver’s motor insurer, we work with them or with your own insurer in the same way and send the same evidence.',
  ],
  damageType: 'impact-accidental',
};
