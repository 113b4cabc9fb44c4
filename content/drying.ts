// The words of a claim's drying record on its status page. The rules (scales, goals, limits) are in lib/drying.ts.
import type { DryingScale, EquipmentKind } from '@/lib/drying';

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

export const dryingText = {
  heading: 'Drying',
  intro:
    'At each visit we measure the moisture in every affected place and compare it with its drying goal: the reading of the same material in a dry part of your home. A place is dry when its reading is at or below its goal.',
  days: (days: number, ended: boolean) =>
    ended
      ? `Drying took ${days < 1 ? 'less than a day' : plural(days, 'day')}.`
      : `Drying for ${days < 1 ? 'less than a day' : plural(days, 'day')} so far.`,
  /** "Kitchen wall, plaster: 28 on 3 Dec, 14 on 9 Dec, goal 12" */
  locationLine: (location: string, material: string, readings: readonly { value: string; date: string }[], goal: string) =>
    `${location}, ${material}: ${readings.map((reading) => `${reading.value} on ${reading.date}`).join(', ')}, goal ${goal}`,
  met: 'Dry: at or below its goal',
  above: 'Still drying: above its goal',
  scale: {
    wme: 'Readings in %WME, from a pin meter.',
    relative: 'Readings on the meter’s own relative scale, from a non-invasive meter.',
  } satisfies Record<DryingScale, string>,
  table: {
    caption: (location: string, material: string) => `Readings: ${location}, ${material}`,
    date: 'Date',
    reading: 'Reading',
    goal: 'Goal',
  },
  chartGoal: (goal: string) => `goal ${goal}`,
  machinesHeading: 'Machines in your home now',
  noMachines: 'No drying machines are in your home now.',
  machine: (count: number, kind: EquipmentKind, model: string) =>
    `${count > 1 ? `${count} × ` : ''}${model} ${count > 1 ? dryingText.kindsMany[kind] : dryingText.kinds[kind]}`,
  since: 'since',
  kinds: { dehumidifier: 'dehumidifier', 'air-mover': 'air mover', heater: 'heater', other: 'machine' } satisfies Record<
    EquipmentKind,
    string
  >,
  kindsMany: { dehumidifier: 'dehumidifiers', 'air-mover': 'air movers', heater: 'heaters', other: 'machines' } satisfies Record<
    EquipmentKind,
    string
  >,
} as const;
