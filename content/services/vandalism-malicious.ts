import { servicePage, type Service } from '@/content/services/service';

export const vandalismMalicious: Service = {
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
  serviceType: 'Vandalism and break-in damage repair',
  page: servicePage('vandalism-malicious', 'Vandalism & Malicious Damage', {
    title: 'Break-in and Vandalism Repairs in Glasgow',
    description:
      'After a break-in or vandalism we secure your home the same day, change locks, repair doors and windows and remove graffiti, with the photographs your insurer needs.',
    keywords: ['break-in repairs', 'vandalism repairs', 'board up', 'lock change', 'malicious damage insurance claim'],
  }),
  covers: [
    'A forced door, a smashed window or paint across the front of your house: the damage may be small, but until it is put right your home does not feel safe. Deliberate damage to empty and let properties is also a large part of what landlords and managing agents ask us to repair.',
    'We secure openings with boards or temporary glazing, change and upgrade locks, repair or replace doors, frames and windows, clean off graffiti and redecorate.',
  ],
  steps: [
    {
      title: 'Secure it the same day',
      text: 'We board up or glaze broken openings and change compromised locks so the property can be left safely.',
    },
    {
      title: 'Record the damage',
      text: 'We photograph everything that was damaged, for your insurer and, where they ask for it, for the police.',
    },
    {
      title: 'Repair and replace',
      text: 'Doors, frames, windows and glazing are repaired or replaced to match, with locks that meet your insurer’s requirements.',
    },
    {
      title: 'Clean up',
      text: 'Graffiti removal, making good and redecoration so nothing is left to remind you.',
    },
  ],
  firstHours: [
    'If anyone may still be inside, do not go in: call 999. Otherwise report the crime to Police Scotland on 101 and note the crime reference number.',
    'Photograph the damage before anything is touched or tidied.',
    'Tell your insurer and give them the crime reference number, which most policies require for a malicious damage claim.',
    'Keep receipts for emergency glazing, locks or boarding you arrange yourself.',
  ],
  insurance: [
    'Malicious damage and theft are covered by most home policies, usually with the condition that the police have been told. Some policies exclude malicious damage while a property has been unoccupied for a set time; your insurer will say.',
    'We send your insurer photographs, the repair schedule and an account of the securing work done on the day, and we collect only the policy excess from you.',
  ],
  damageType: 'vandalism-malicious',
};
