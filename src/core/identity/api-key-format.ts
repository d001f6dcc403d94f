import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * API keys look like `ock_` + 32 random base62 characters (about 190 bits) + a 6-character
 * CRC32 checksum. The checksum lets a typo or a truncated key be refused without a database
 * read, and the prefix lets secret scanners recognise a leaked key.
 */
export const API_KEY_PREFIX = 'ock_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_CHARS = 32;
const CHECKSUM_CHARS = 6;
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_CHARS + CHECKSUM_CHARS}}$`);

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: rejecting bytes above it keeps every character equally likely.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

function checksum(body: string): string {
  let n = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_CHARS; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/** SCIM tokens are made the same way under their own prefix, so a scanner tells the two apart. */
export const SCIM_TOKEN_PREFIX = 'ocs_';

export function generateApiKey(prefix: typeof API_KEY_PREFIX | typeof SCIM_TOKEN_PREFIX = API_KEY_PREFIX): string {
  const body = randomBase62(RANDOM_CHARS);
  return `${prefix}${body}${checksum(body)}`;
}

const SCIM_TOKEN_PATTERN = new RegExp(`^${SCIM_TOKEN_PREFIX}[0-9A-Za-z]{${RANDOM_CHARS + CHECKSUM_CHARS}}$`);

export function isWellFormedApiKey(key: string, prefix: typeof API_KEY_PREFIX | typeof SCIM_TOKEN_PREFIX = API_KEY_PREFIX): boolean {
  if (!(prefix === API_KEY_PREFIX ? KEY_PATTERN : SCIM_TOKEN_PATTERN).test(key)) return false;
  const body = key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + RANDOM_CHARS);
  return checksum(body) === key.slice(API_KEY_PREFIX.length + RANDOM_CHARS);
}

/** Keys carry enough entropy that one fast hash is enough; only this hash is stored. */
export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** The part of a key that may be shown again later, to tell keys apart. */
export const displayPrefix = (key: string): string => key.slice(0, API_KEY_PREFIX.length + 6);
