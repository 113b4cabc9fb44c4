/** A retry delay that starts at `firstMs` and doubles with each failure (1, 2, 3 …) up to `maxMs`. */
export function doublingDelay(firstMs: number, maxMs: number): (failures: number) => number {
  return (failures) => Math.min(maxMs, firstMs * 2 ** Math.max(0, failures - 1));
}
