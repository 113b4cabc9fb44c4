// The drying record's terms, without its schema: what the staff page's form offers in the browser.

/**
 * The meters' scales. A pin meter reads %WME (wood moisture equivalent), 0-100 in practice; a
 * non-invasive meter reads on its own relative scale, which on the common instruments (Protimeter,
 * Tramex, Surveymaster) runs 0 to 999 at most: a reading is compared with its goal on the same
 * instrument, never across scales.
 */
export const DRYING_SCALES = {
  wme: { min: 0, max: 100 },
  relative: { min: 0, max: 999 },
} as const;
export type DryingScale = keyof typeof DRYING_SCALES;
export const SCALE_NAMES = Object.keys(DRYING_SCALES) as [DryingScale, ...DryingScale[]];

export const MATERIALS = ['plaster', 'plasterboard', 'timber', 'screed', 'concrete', 'brick', 'block', 'stone', 'other'] as const;
export type Material = (typeof MATERIALS)[number];

export const EQUIPMENT_KINDS = ['dehumidifier', 'air-mover', 'heater', 'other'] as const;
export type EquipmentKind = (typeof EQUIPMENT_KINDS)[number];
