import { Type, type Static } from '@sinclair/typebox';
import { UuidParam } from '../http/params.js';
import { ROLES } from './roles.js';
import { SCOPES } from './scopes.js';

const Uuid = Type.String({ format: 'uuid' });
const EpochMs = Type.Integer({ minimum: 0, description: 'Unix time in milliseconds' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const RoleSchema = Type.Union(ROLES.map((r) => Type.Literal(r)));
const ScopeSchema = Type.Union(
  SCOPES.map((s) => Type.Literal(s)),
  {
    description:
      "full: everything the holder's role may do; telemetry:write: telemetry and OTLP exports; allowance:read: allowances (only what the usage-limit hook needs) and the enforcement policy; sessions:attribute: record a session's repository (docs/identity-and-access.md, Scopes)",
  },
);
const Scopes = Type.Array(ScopeSchema, { minItems: 1, description: 'What the credential may do; full for sessions, JWTs and keys made without scopes' });

export const Me = Type.Object({
  principalId: Uuid,
  kind: Type.Union([Type.Literal('user'), Type.Literal('service_account')]),
  email: Nullable(Type.String()),
  name: Type.String(),
  role: RoleSchema,
  organization: Type.Object({ id: Uuid, name: Type.String() }),
  scopes: Scopes,
  credential: Type.Object({ type: Type.Union([Type.Literal('api_key'), Type.Literal('jwt'), Type.Literal('session')]), keyId: Type.Optional(Uuid) }),
});

export const UpdateMeBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Your name as the app shows it' })),
    email: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: 320,
        description: 'Your email, which is also your sign-in name; unique in the organization (stored lower-cased)',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const ApiKey = Type.Object({
  id: Uuid,
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to tell keys apart' }),
  principalId: Uuid,
  principalEmail: Nullable(Type.String()),
  principalName: Type.String({ description: "The holder's name: a user's name, or a service account's" }),
  principalKind: Type.Union([Type.Literal('user'), Type.Literal('service_account')]),
  scopes: Scopes,
  createdAt: EpochMs,
  expiresAt: Nullable(EpochMs),
  revokedAt: Nullable(EpochMs),
  lastUsedAt: Nullable(EpochMs),
});
export type ApiKeyDto = Static<typeof ApiKey>;

export const CreatedApiKey = Type.Composite([ApiKey, Type.Object({ key: Type.String({ description: 'The secret. Shown only in this response.' }) })]);

export const CreateApiKeyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    expiresAt: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 253_402_300_799_999,
        description: 'Unix time in milliseconds; must be in the future and at most 9999-12-31T23:59:59.999Z',
      }),
    ),
    principalId: Type.Optional(Uuid),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
    scopes: Type.Optional(
      Type.Array(ScopeSchema, {
        minItems: 1,
        maxItems: SCOPES.length,
        uniqueItems: true,
        description: 'Narrow the key to these scopes (default: full); a managed install needs exactly allowance:read, sessions:attribute, telemetry:write',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ListApiKeysQuery = Type.Object({ principalId: Type.Optional(Uuid) });
export const ApiKeyList = Type.Object({ apiKeys: Type.Array(ApiKey) });
export const KeyIdParams = Type.Object({ id: UuidParam('API key', 'api_key_not_found') });

export const ServiceAccountRole = Type.Union([Type.Literal('manager'), Type.Literal('member')], { description: 'A service account is a manager or a member' });
export const ServiceAccount = Type.Object({
  id: Uuid,
  name: Type.String(),
  role: ServiceAccountRole,
  createdAt: EpochMs,
  activeKeys: Type.Integer({ minimum: 0, description: 'Keys neither revoked nor expired' }),
});
export const ServiceAccountList = Type.Object({ serviceAccounts: Type.Array(ServiceAccount) });
export const CreateServiceAccountBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100 }), role: ServiceAccountRole },
  { additionalProperties: false },
);
export const ServiceAccountIdParams = Type.Object({ id: UuidParam('Service account', 'service_account_not_found') });

const AccountId = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "An agent client's account id or uuid (OTLP user.account_id, user.account_uuid, or Droid's user.id)",
});
export const AccountLinkBody = Type.Object(
  { email: Type.String({ format: 'email', maxLength: 320, description: 'A user of the organization' }), accountId: AccountId },
  { additionalProperties: false },
);
export const AccountLink = Type.Object({
  accountId: Type.String(),
  userId: Type.String({ format: 'uuid' }),
  email: Type.String(),
  createdAt: Type.Optional(Type.Integer({ description: 'Unix time in milliseconds' })),
});
export const AccountLinkList = Type.Object({ links: Type.Array(AccountLink) });
export const AccountIdParams = Type.Object({ accountId: AccountId });
