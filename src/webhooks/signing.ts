import { createHmac, randomBytes } from 'node:crypto';

/** A new endpoint secret: `whsec_` and 24 random bytes in base64, as Standard Webhooks secrets are. */
export const newSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** A message id: `msg_` and 32 hex digits, the `webhook-id` of every attempt of one event. */
export const newMessageId = (): string => `msg_${randomBytes(16).toString('hex')}`;

/**
 * The `webhook-signature` header (Standard Webhooks): `v1,` and the base64 HMAC-SHA256, keyed with
 * the secret's base64 part decoded, of `id.timestamp.body` (timestamp in Unix seconds).
 */
export function sign(secret: string, id: string, timestampS: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampS}.${body}`).digest('base64')}`;
}
