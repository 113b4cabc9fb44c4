import { servicePage, type Service } from '@/content/services/service';

export const waterDamage: Service = {
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
  serviceType: 'Water damage restoration',
  page: servicePage('water-damage', 'Water Damage Restoration', {
    title: 'Water Damage Restoration in Glasgow and Cumbernauld',
    description:
      'Burst pipe, leak or flood? We trace the source, dry your home with moisture readings your insurer accepts and reinstate ceilings, floors and kitchens across Glasgow and the central belt.',
    keywords: ['water damage restoration', 'burst pipe repair', 'leak detection', 'drying out', 'water damage insurance claim'],
  }),
  covers: [
    'Escape of water is the most common home insurance claim in Scotland, and the most often underestimated. Water runs along joists and behind plasterboard, so the stain on the ceiling is rarely where the leak is, and a room that feels dry can still hold enough moisture to grow mould or lift new flooring months later.',
    'We deal with leaks from pipes, tanks, radiators, appliances, showers and baths, water coming through from the flat above, and the damage left once a roof leak has been stopped. Where the source is hidden we use trace and access methods to find it with as little opening-up as possible.',
  ],
  steps: [
    {
      title: 'Make safe',
      text: 'We isolate the water and, where needed, the electrics, then lift saturated floor coverings and take down ceilings that are holding water before they fall.',
    },
    {
      title: 'Find the cause',
      text: 'Our surveyor traces the leak, photographs it and records the cause, which is what your insurer needs to decide the claim.',
    },
    {
      title: 'Dry and prove it',
      text: 'Dehumidifiers and air movers run until moisture readings return to normal; we log the readings on every visit so the drying is on record.',
    },
    {
      title: 'Reinstate',
      text: 'We replace what could not be saved: plaster, ceilings, skirtings, flooring, kitchen units, then decorate so the room matches the rest of your home.',
    },
  ],
  firstHours: [
    'Turn off the water at the stopcock, usually under the kitchen sink, and switch off the electrics at the fuse box if water is near sockets, lights or the consumer unit.',
    'Keep out of rooms where a ceiling is bulging or sagging.',
    'Photograph the damage and the source of the leak before anything is moved or thrown away.',
    'Tell your insurer as soon as you can, and note the claim number they give you.',
    'Keep receipts for anything you buy or pay for to limit the damage, such as a plumber’s call-out.',
  ],
  insurance: [
    'Most policies cover the damage caused by escaping water; many also cover the cost of finding a hidden leak (trace and access), but not the repair of the worn part itself. Your insurer decides what the policy covers: we give them the evidence to decide quickly.',
    'If your insurer or loss adjuster appoints us, we send them the cause, photographs, drying records and an itemised reinstatement schedule, and we collect only the policy excess from you.',
  ],
  damageType: 'water-damage',
};
