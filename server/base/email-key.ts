/**
 * The one form an e-mail address is compared in (acknowledgement caps, subject access, erasure):
 * trimmed, Unicode NFC, case-folded. JavaScript has no full case folding; upper- then lower-casing
 * gives it for the letters that matter here (`ß` → `ss`, `Ö` → `ö`, final sigma), where SQLite's
 * `lower()` folds ASCII only.
 */
export function emailKey(email: string): string {
  return email.trim().normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}

/**
 * The mailbox an address reaches, as budgets and revocations count it: compared as `emailKey`, a `+tag`
 * taken off, the domain without a trailing dot; dots in the name kept as typed (a domain's own rule).
 */
export function mailboxKey(address: string): string {
  const key = emailKey(address);
  const at = key.lastIndexOf('@');
  let domain = key.slice(at + 1);
  while (domain.endsWith('.')) domain = domain.slice(0, -1);
  return `${key.slice(0, at).split('+')[0]}@${domain}`;
}
