// The words of a claim's drying record on its status page. The rules (scales, goals, limits) are in lib/drying.ts.
import type { DryingScale, EquipmentKind } from '@/lib/drying-terms';

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

/** The staff page's form for one drying visit. */
export const staffVisitText = {
  heading: 'Record a drying visit',
  intro:
    'Enter this visit’s readings and the machines placed, changed or removed. Locations already recorded are filled in: add the new reading. Machines still running are listed: give a switched-off time, a new count or a meter reading only where it changed; a machine left as it is stays as recorded. Rows left without a reading or a model are not recorded.',
  /** How numbers are typed: a point for decimals; a comma only groups thousands. */
  numberHint: 'Numbers: a point for decimals (12.5). A comma only separates thousands: 1,250 is one thousand two hundred and fifty.',
  visitAt: 'Visit date and time',
  readings: 'Readings',
  locationRow: (row: number) => `Location ${row}`,
  labels: {
    location: 'Room or surface',
    material: 'Material',
    scale: 'Meter scale',
    value: 'Reading',
    goal: 'Goal (dry standard)',
  },
  scales: { wme: '%WME (pin meter)', relative: 'Relative (non-invasive meter)' } satisfies Record<DryingScale, string>,
  machines: 'Machines',
  machineRow: (row: number) => `Machine ${row}`,
  /** A machine still running, its row's description: "Ebac BD150 dehumidifier, switched on 3 Dec 2026, 15:00". */
  runningMachine: (model: string, kind: EquipmentKind, on: string) => `${model} ${dryingText.kinds[kind]}, switched on ${on}`,
  machineLabels: {
    kind: 'Kind',
    model: 'Make and model',
    watts: 'Rated watts',
    count: 'How many',
    on: 'Switched on',
    off: 'Switched off (when removed)',
    kwh: 'Plug-in meter kWh (optional)',
  },
  submit: 'Record the visit',
  saved: (readings: number, machines: number) => `Visit recorded: ${plural(readings, 'reading')}, ${plural(machines, 'machine')}.`,
  invalid: 'Please correct the highlighted fields.',
  empty: 'Enter at least one reading or one machine.',
  badTime: 'Enter a date and time',
  badComma: 'must use a point for decimals (12.5); a comma only separates thousands (1,250)',
  machineTwice: 'This machine is listed twice: reload the page.',
  unknownMachine: 'A machine in this form is no longer in this claim’s record: reload the page.',
  nothingChanged:
    'Nothing to record: enter a reading, a new machine, or a change to a machine still running (an off time, a count or a meter reading).',
  tooManyMachines: (machines: number) => `A visit adds or changes at most ${machines} machines: record the rest in another visit.`,
  /** Beside a reading above its goal typed while the claim is at `dried`. */
  wetWarning: (goal: string) => `Above its goal of ${goal}: the claim is dried, so this reading moves it back to drying.`,
  confirmWet: 'I confirm this reading is above its goal; the claim goes back to drying',
  confirmWetNeeded:
    'This claim is dried and a reading here is above its goal: tick the box to confirm it, and the claim goes back to drying.',
  reopened: 'The claim is back in drying: a reading is above its goal, and the customer is told.',
  /** The customer's note on the stage change a wet reading after `dried` makes. */
  reopenNote: (location: string) => `Drying continues: a new reading of ${location} is above its drying goal.`,
  /** What a visit form already sent recorded the first time (staffPage.alreadySent). */
  firstVisit: (visitAt: string, readings: number) => `recorded the visit of ${visitAt} (${plural(readings, 'reading')})`,
  tooMany: (visits: number) => `This claim has ${visits} visits recorded already, as many as it keeps.`,
  /** A field's error from the visit's rules: "Reading must be within the wme scale, 0-100". */
  fieldError: (label: string, message: string) => `${label} ${message}`,
} as const;
