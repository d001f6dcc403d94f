import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, INTERNAL_DETAIL } from '../core/http/errors.js';
import { toAppError } from '../core/http/error-handler.js';

const SCIM_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

/** RFC 7644 §3.12's scimType values this service answers with. */
export type ScimType = 'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue';

/** A failure said in SCIM's terms: its status and, for a 400 or 409, its scimType. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
    this.name = 'ScimError';
  }
}

/**
 * The longest a name the service keeps may be, as `PATCH /me` bounds a person's own (200), and
 * an externalId (200: providers send a GUID or a short id). A SCIM body may be a mebibyte.
 */
export const MAX_NAME = 200;
export const MAX_EXTERNAL_ID = 200;

/** Refuses a text attribute longer than `max` characters (400 invalidValue, naming it). */
export function checkLength(value: string | null, what: string, max: number): void {
  if (value !== null && value.length > max) throw new ScimError(400, `${what} must be at most ${max} characters (it has ${value.length}).`, 'invalidValue');
}

/** The scimType of the service's own codes, where SCIM has one. */
const SCIM_TYPES: Partial<Record<string, ScimType>> = {
  validation_failed: 'invalidValue',
  bad_request: 'invalidValue',
  malformed_request: 'invalidSyntax',
  email_taken: 'uniqueness',
  name_taken: 'uniqueness',
  team_managed_by_scim: 'mutability',
  last_owner: 'mutability',
};

/**
 * The SCIM error object (RFC 7644 §3.12) for whatever a /scim/v2 route threw: `status` is a
 * string there; the x-request-id header matches an answer to its log line. A 500 says nothing
 * internal, as elsewhere.
 */
export function sendScimError(request: FastifyRequest, reply: FastifyReply, err: unknown) {
  let status: number;
  let detail: string;
  let scimType: ScimType | undefined;
  if (err instanceof ScimError) {
    ({ status, detail, scimType } = err);
  } else {
    const app: AppError = toAppError(err as Error, request);
    if (app.status >= 500 && app.cause !== undefined) request.log.error({ err: app.cause, code: app.code }, app.detail);
    if (app.headers) reply.headers(app.headers);
    status = app.status;
    detail = app.status === 500 ? INTERNAL_DETAIL : app.detail;
    scimType = SCIM_TYPES[app.code];
  }
  return reply
    .code(status)
    .type(SCIM_CONTENT_TYPE)
    .send({
      schemas: [SCIM_ERROR],
      status: String(status),
      ...(scimType ? { scimType } : {}),
      detail,
    });
}
