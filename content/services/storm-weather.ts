import { servicePage, type Service } from '@/content/services/service';

export const stormWeather: Service = {
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
  serviceType: 'Storm damage repair',
  page: servicePage('storm-weather', 'Storm & Weather Damage', {
    title: 'Storm Damage Repairs in Glasgow and Cumbernauld',
    description:
      'Slates off, chimney damaged or water coming in after a storm? We make your roof safe and watertight, then repair the roof and the damage inside, working with your insurer across the central belt.',
    keywords: ['storm damage repair', 'roof repairs', 'slate roof', 'chimney repairs', 'storm damage insurance claim'],
  }),
  covers: [
    'After a named storm the phones ring all at once: slipped and missing slates, lifted ridge tiles, flashings torn away, chimney pots down, gutters hanging, fences and garden walls flattened, and rain getting in where it never has before.',
    'We repair slate and tile roofs, leadwork, chimneys, roughcast and rainwater goods in the materials your home was built with, and put right the ceilings, walls and electrics that the water reached inside.',
  ],
  steps: [
    {
      title: 'Make safe and watertight',
      text: 'We remove anything loose that could fall, and cover open roofs and broken windows with tarpaulins or boards until the permanent repair.',
    },
    {
      title: 'Survey from the roof down',
      text: 'Our surveyor inspects and photographs the roof and the inside, and records what was storm damage and what was wear, which is the question your insurer will ask.',
    },
    {
      title: 'Repair the outside',
      text: 'Roofers, joiners and builders from our own staff carry out the repair, with scaffolding where it is needed for safe access.',
    },
    {
      title: 'Put the inside right',
      text: 'Once the building is watertight we dry out and reinstate any rooms the rain reached.',
    },
  ],
  firstHours: [
    'Stay away from damaged chimneys, walls and fallen trees, and keep others clear; if anything could fall onto a road or pavement, tell the council.',
    'Do not go onto the roof yourself.',
    'Move belongings away from leaks and catch the water in buckets; switch off lighting circuits below a leak.',
    'Photograph the damage from the ground and inside, and keep any slates or debris that came down.',
    'Tell your insurer, note the claim number, and keep receipts for emergency work you pay for.',
  ],
  insurance: [
    'Insurers cover damage from a storm, which they usually define by wind speed or rainfall on the day, but not gradual wear such as old slates or perished flashings. Weather records for the date and a surveyor’s report on the cause are what settle this.',
    'We give your insurer or loss adjuster photographs, the cause, and a reinstatement schedule separating storm damage from any maintenance you may want done at the same time, priced apart.',
  ],
  damageType: 'storm-weather',
};
