/**
 * The reference of an enquiry: `HC-` and six characters in two groups of three, from an
 * alphabet without 0/O, 1/I/L, so it can be read out on the phone. It is a bijection of the enquiry's id
 * (an affine permutation of 0…31⁶−1), so two enquiries never share one and no table of used references
 * is needed, while consecutive enquiries do not get consecutive-looking references.
 */
const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const REFERENCE_LENGTH = 6;
const REFERENCE_PATTERN = /^HC-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}$/;

const BASE = BigInt(REFERENCE_ALPHABET.length);
const SPACE = BASE ** BigInt(REFERENCE_LENGTH);
// Coprime to 31⁶ (not a multiple of 31), so n ↦ (n·MULTIPLIER + OFFSET) mod 31⁶ is a permutation.
const MULTIPLIER = 550_490_813n;
const OFFSET = 304_211_171n;

/** How many distinct references there are (887 503 681); ids beyond it would wrap. */
const REFERENCE_CAPACITY = Number(SPACE);

export function enquiryReference(id: number): string {
  if (!Number.isSafeInteger(id) || id < 0 || id >= REFERENCE_CAPACITY) throw new RangeError(`No reference for enquiry id ${id}`);
  let value = (BigInt(id) * MULTIPLIER + OFFSET) % SPACE;
  let characters = '';
  for (let index = 0; index < REFERENCE_LENGTH; index += 1) {
    characters = REFERENCE_ALPHABET[Number(value % BASE)]! + characters;
    value /= BASE;
  }
  return `HC-${characters.slice(0, 3)}-${characters.slice(3)}`;
}

/** MULTIPLIER's inverse modulo 31⁶, so a reference gives back its id. */
function inverseOf(value: bigint, modulus: bigint): bigint {
  let [a, b, x, y] = [value % modulus, modulus, 1n, 0n];
  while (b !== 0n) {
    const quotient = a / b;
    [a, b, x, y] = [b, a - quotient * b, y, x - quotient * y];
  }
  return ((x % modulus) + modulus) % modulus;
}
const INVERSE = inverseOf(MULTIPLIER, SPACE);

/** The id a well-formed reference stands for (enquiryReference's inverse). */
export function enquiryIdOf(reference: string): number {
  if (!REFERENCE_PATTERN.test(reference)) throw new RangeError(`Not a reference: ${reference}`);
  let value = 0n;
  for (const character of reference.slice(3).replace('-', '')) value = value * BASE + BigInt(REFERENCE_ALPHABET.indexOf(character));
  return Number((((((value - OFFSET) % SPACE) + SPACE) % SPACE) * INVERSE) % SPACE);
}

export const isEnquiryReference = (value: unknown): value is string => typeof value === 'string' && REFERENCE_PATTERN.test(value);

/**
 * The same reference as an SQLite expression of an id column, so the store can write it in the very
 * batch that inserts the enquiry (whose id is known only there). SQLite's 64-bit integers hold the
 * product (below 31⁶ × 31⁶ ≈ 7.9e17). lib/enquiry-reference.test.ts holds it equal to enquiryReference.
 */
export function enquiryReferenceSql(idColumn: string): string {
  const permuted = `((${idColumn} * ${MULTIPLIER} + ${OFFSET}) % ${SPACE})`;
  const digit = (position: number) => `substr('${REFERENCE_ALPHABET}', (${permuted} / ${BASE ** BigInt(position)}) % ${BASE} + 1, 1)`;
  const group = (positions: number[]) => positions.map(digit).join(' || ');
  return `('HC-' || ${group([5, 4, 3])} || '-' || ${group([2, 1, 0])})`;
}
