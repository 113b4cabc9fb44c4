import { DRYING_LIMITS, MATERIALS, type StoredMachine, type StoredReading } from '@/lib/drying';
import { drynessCertificate, electricityStatement, type DrynessCertificate, type ElectricityStatement } from '@/lib/drying-documents';
import { EQUIPMENT_KINDS } from '@/lib/drying-terms';

/**
 * Drying records as large as the limits allow (lib/drying.ts DRYING_LIMITS), for the documents' tests,
 * their benchmark and their screenshots. Names in several languages, some as long as a name may be.
 */

const DAY_MS = 24 * 60 * 60_000;
const START = Date.parse('2026-06-01T08:00:00.000Z');

const PLACES = [
  'Łazienka',
  'Seòmar-cadail',
  'Kitchen wall',
  'Ystafell fyw, wal ogleddol',
  'Hallway skirting behind the radiator and the under-stair cupboard door frame',
  'Sypialnia Wójcików',
  'Dŵr yn y seler',
  'Utility floor',
];
const MODELS = ['Ebac “café” édition', 'Ebac 2650e', 'Dri-Eaz LGR 3500i', 'Trotec TTK 355 S', 'Sealey SAC', 'Mostrwr Dŵr 400'];

export type SampleShape = {
  visits?: number;
  locationsPerVisit?: number;
  machinesPerVisit?: number;
  /** Each visit reads new places (the most rows a certificate's locations can have), or the same places each visit. */
  newPlacesEachVisit?: boolean;
};

export function sampleRecord(shape: SampleShape = {}): { readings: StoredReading[]; machines: StoredMachine[]; lastVisit: number } {
  const visits = shape.visits ?? DRYING_LIMITS.visitsPerClaim;
  const perVisit = shape.locationsPerVisit ?? DRYING_LIMITS.locationsPerVisit;
  const machinesPerVisit = shape.machinesPerVisit ?? DRYING_LIMITS.machinesPerVisit;
  const readings: StoredReading[] = [];
  const machines: StoredMachine[] = [];
  for (let visit = 0; visit < visits; visit += 1) {
    const at = START + visit * DAY_MS;
    for (let index = 0; index < perVisit; index += 1) {
      const place = shape.newPlacesEachVisit ? visit * perVisit + index : index;
      const scale = index % 3 === 2 ? 'relative' : 'wme';
      const goal = scale === 'wme' ? 12 + (index % 5) : 180 + index;
      // Falling from wet to its goal at the last visit.
      const value = Math.round((goal + ((scale === 'wme' ? 30 : 400) * (visits - 1 - visit)) / visits) * 10) / 10;
      readings.push({
        visitAt: new Date(at).toISOString(),
        location: `${PLACES[place % PLACES.length]} ${place + 1}`.slice(0, DRYING_LIMITS.locationLength),
        material: MATERIALS[index % MATERIALS.length]!,
        scale,
        value,
        goal,
      });
    }
    for (let index = 0; index < machinesPerVisit; index += 1)
      machines.push({
        kind: EQUIPMENT_KINDS[index % EQUIPMENT_KINDS.length]!,
        model: `${MODELS[index % MODELS.length]} no. ${visit * machinesPerVisit + index + 1}`,
        watts: [700, 300, 2000, 550][index % 4]!,
        count: (index % 3) + 1,
        on: new Date(at + index * 60_000).toISOString(),
        off: new Date(at + DAY_MS - 60 * 60_000).toISOString(),
        kwh: index % 5 === 4 ? 12.5 + index : null,
      });
  }
  return { readings, machines, lastVisit: START + (visits - 1) * DAY_MS };
}

/** Both documents of a sample record, issued a day after its last visit. */
export function sampleDocuments(
  shape: SampleShape = {},
  overrides: { confirmedBy?: string | null; postcode?: string | null } = {},
): { statement: ElectricityStatement; certificate: DrynessCertificate } {
  const record = sampleRecord(shape);
  const now = record.lastVisit + DAY_MS;
  const common = { reference: 'HC-YVG-Y5S', postcode: overrides.postcode === undefined ? 'G67 1AA' : overrides.postcode, now };
  const statement = electricityStatement({ ...common, machines: record.machines, pencePerKwh: 24.5 })!;
  const certificate = drynessCertificate({
    ...common,
    readings: record.readings,
    machines: record.machines,
    confirmed: { at: new Date(record.lastVisit + 2 * 60 * 60_000).toISOString(), by: overrides.confirmedBy ?? 'Agnieszka Wójcik' },
  })!;
  return { statement, certificate };
}

export const sampleIssued = (issuedAt: string) => ({
  number: 'HC-YVG-Y5S-E2',
  issuedAt,
  verifyUrl: 'https://www.example.com/verify/1.AbCdEfGhIjKlMnOpQrStUvWxYz012345',
});
