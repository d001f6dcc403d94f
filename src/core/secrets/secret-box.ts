import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A stored secret that cannot be opened with the keys this process has. */
export class SecretsKeyError extends Error {}

/** The short id a sealed value names its key by: enough to tell keys apart, nothing to learn the key from. */
const keyIdOf = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

/**
 * Secrets the service must read back (an OIDC client secret, a webhook endpoint's signing secret)
 * are stored sealed with AES-256-GCM under `SECRETS_KEY`, so a copy of the database (a backup, a
 * replica, a dump) does not give them away. The first key seals; every key given opens, so a key
 * is rotated by putting the new one first and restarting (`reseal` moves the stored values over).
 * `context` (the table and column) is authenticated with the value, so a sealed value does not
 * open in another place. Without a key, values are stored as given, as before the setting existed.
 */
export class SecretBox {
  private readonly keys: Map<string, Buffer>;
  private readonly sealingId: string | undefined;

  /** `setting`: SECRETS_KEY, base64 keys of 32 bytes separated by commas (validated by the configuration). */
  constructor(setting: string | undefined) {
    const keys = (setting ?? '')
      .split(',')
      .filter((k) => k !== '')
      .map((k) => Buffer.from(k, 'base64'));
    this.keys = new Map(keys.map((k) => [keyIdOf(k), k]));
    this.sealingId = keys[0] === undefined ? undefined : keyIdOf(keys[0]);
  }

  seal(plain: string, context: string): string {
    if (this.sealingId === undefined) return plain;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.sealingId)!, iv).setAAD(Buffer.from(context));
    const sealed = Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}${this.sealingId}:${sealed.toString('base64url')}`;
  }

  open(stored: string, context: string): string {
    if (!stored.startsWith(PREFIX)) return stored;
    const [id, data] = stored.slice(PREFIX.length).split(':');
    const key = this.keys.get(id ?? '');
    if (key === undefined) throw new SecretsKeyError(`A stored secret is sealed with key ${id}, which SECRETS_KEY does not hold.`);
    const bytes = Buffer.from(data ?? '', 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES)).setAAD(Buffer.from(context));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretsKeyError(`A stored secret of ${context} does not open with key ${id}: it was changed or moved.`);
    }
  }

  /** Whether a stored value is as `seal` would store it now (sealed with the first key, or plain without a key). */
  current(stored: string): boolean {
    return this.sealingId === undefined ? !stored.startsWith(PREFIX) : stored.startsWith(`${PREFIX}${this.sealingId}:`);
  }
}
