import 'server-only';
import { readFile } from 'node:fs/promises';
import { Decrypter, Encrypter } from 'age-encryption';
import { BackupError } from './format';

/** The lines of a key file that hold keys: blank lines and `#` comments (age-keygen writes some) left out. */
const keyLines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line !== '' && !line.startsWith('#'));

/** Checks each public key (`age1…`) before any work starts. */
export function checkRecipients(recipients: readonly string[]): string[] {
  return recipients.map((recipient) => {
    const key = recipient.trim();
    if (/^AGE-SECRET-KEY-/i.test(key))
      throw new BackupError(
        'That is a private key (AGE-SECRET-KEY-…): a backup is encrypted to the public key (age1…); keep the private key off this server.',
      );
    try {
      if (!key.startsWith('age1')) throw new Error('no age1 prefix');
      new Encrypter().addRecipient(key);
    } catch {
      throw new BackupError(`Not an age public key: "${key}" (one begins with age1; age-keygen -y KEYFILE prints it).`);
    }
    return key;
  });
}

/** The public keys of a recipients file: one `age1…` per line, `#` comments allowed (as `age -R` reads). */
export async function readRecipientsFile(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new BackupError(`Could not read the recipients file ${file} (${(error as NodeJS.ErrnoException).code ?? error}).`);
  }
  const keys = keyLines(text).map(({ line }) => line);
  if (keys.length === 0) throw new BackupError(`The recipients file ${file} holds no public key.`);
  return checkRecipients(keys);
}

/** The private keys (`AGE-SECRET-KEY-1…`) of an identity file as age-keygen writes it. */
export async function readIdentityFile(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new BackupError(`Could not read the identity file ${file} (${(error as NodeJS.ErrnoException).code ?? error}).`);
  }
  const identities = keyLines(text).map(({ line, number }) => {
    try {
      if (!/^AGE-SECRET-KEY-/.test(line)) throw new Error('not a secret key');
      new Decrypter().addIdentity(line);
    } catch {
      throw new BackupError(`Line ${number} of ${file} is not an age private key (one begins with AGE-SECRET-KEY-1).`);
    }
    return line;
  });
  if (identities.length === 0) throw new BackupError(`The identity file ${file} holds no private key.`);
  return identities;
}
