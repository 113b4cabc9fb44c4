/**
 * The one form an e-mail address is compared in (acknowledgement caps, subject access, erasure):
 * trimmed, Unicode NFC, case-folded. JavaScript has no full case folding; upper- then lower-casing
 * gives it for the letters that matter here (`ß` → `ss`, `Ö` → `ö`, final sigma), where SQLite's
 * `lower()` folds ASCII only.
 */
export function emailKey(email: string): string {
  return email.trim().normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}
