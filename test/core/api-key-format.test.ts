import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { API_KEY_PREFIX, generateApiKey, hashApiKey, isWellFormedApiKey } from '../../src/core/identity/api-key-format.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('API key format', () => {
  it('generated keys have the prefix, 38 base62 characters and a valid checksum', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    for (const k of keys) {
      expect(k).toMatch(/^ock_[0-9A-Za-z]{38}$/);
      expect(isWellFormedApiKey(k)).toBe(true);
    }
  });

  it('changing any one character breaks the checksum (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: API_KEY_PREFIX.length, max: API_KEY_PREFIX.length + 37 }), fc.integer({ min: 1, max: 61 }), (pos, shift) => {
        const key = generateApiKey();
        const swapped = BASE62[(BASE62.indexOf(key[pos]!) + shift) % 62]!;
        const broken = key.slice(0, pos) + swapped + key.slice(pos + 1);
        expect(isWellFormedApiKey(broken)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses other prefixes, lengths and characters', () => {
    const k = generateApiKey();
    expect(isWellFormedApiKey(`xyz_${k.slice(4)}`)).toBe(false);
    expect(isWellFormedApiKey(k.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`${k}A`)).toBe(false);
    expect(isWellFormedApiKey(`${k.slice(0, 10)}-${k.slice(11)}`)).toBe(false);
  });

  it('hashes to a fixed-length digest that does not contain the key', () => {
    const k = generateApiKey();
    expect(hashApiKey(k)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(k)).not.toContain(k.slice(4, 12));
  });
});
