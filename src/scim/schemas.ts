import { Type } from '@sinclair/typebox';
import { UuidParam } from '../core/http/params.js';

const EpochMs = Type.Integer({ minimum: 0, description: 'Unix time in milliseconds' });

// --- The owner's token routes (/api/v0/organization/scim/tokens) ---------------------------

export const ScimToken = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    prefix: Type.String({ description: 'The first characters of the token (ocs_…), to tell tokens apart' }),
    createdAt: EpochMs,
    revokedAt: Type.Union([EpochMs, Type.Null()]),
    lastUsedAt: Type.Union([EpochMs, Type.Null()], { description: 'Recorded at most once a minute' }),
  },
  { $id: 'ScimToken', title: 'ScimToken' },
);

export const CreatedScimToken = Type.Intersect([Type.Ref(ScimToken), Type.Object({ token: Type.String({ description: 'The secret: shown only here' }) })]);
export const ScimTokenList = Type.Object({
  baseUrl: Type.String({ description: 'The SCIM base URL to give the identity provider (PUBLIC_URL, else the address this request named, + /scim/v2)' }),
  tokens: Type.Array(Type.Ref(ScimToken)),
});
export const CreateScimTokenBody = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'What the token is for, e.g. "Okta"' })) },
  { additionalProperties: false },
);
export const ScimTokenParams = Type.Object({ tokenId: UuidParam('SCIM token', 'scim_token_not_found') });

// --- The SCIM protocol (/scim/v2): shapes checked here, attributes in users.ts and groups.ts --

/** A SCIM resource body: its attributes are checked by the area, which ignores those it does not keep. */
export const ScimResourceBody = Type.Object({}, { additionalProperties: true });

export const ScimPatchBody = Type.Object(
  {
    schemas: Type.Optional(Type.Array(Type.String())),
    Operations: Type.Array(
      Type.Object(
        { op: Type.String(), path: Type.Optional(Type.String({ maxLength: 1000 })), value: Type.Optional(Type.Unknown()) },
        { additionalProperties: true },
      ),
      // The count is bounded by MAX_OPERATIONS (patch.ts), answered as SCIM says: 413, not a validation error.
      { minItems: 1 },
    ),
  },
  { additionalProperties: true },
);

export const ScimListQuery = Type.Object({
  filter: Type.Optional(Type.String({ maxLength: 2000 })),
  startIndex: Type.Optional(Type.Integer()),
  count: Type.Optional(Type.Integer()),
  attributes: Type.Optional(Type.String({ maxLength: 1000 })),
  excludedAttributes: Type.Optional(Type.String({ maxLength: 1000 })),
});

export const ScimGetQuery = Type.Object({
  attributes: Type.Optional(Type.String({ maxLength: 1000 })),
  excludedAttributes: Type.Optional(Type.String({ maxLength: 1000 })),
});

export const ScimIdParams = Type.Object({ id: Type.String({ maxLength: 200 }) });
