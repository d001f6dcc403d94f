import { Type } from '@sinclair/typebox';

const EpochMs = Type.Integer({ minimum: 0, description: 'Unix time in milliseconds' });

/** Roles the group mapping may give: owners are made and unmade by hand only. */
const MappedRole = Type.Union([Type.Literal('manager'), Type.Literal('member'), Type.Literal('guest')]);
const Group = Type.String({ minLength: 1, maxLength: 200 });
const Domain = Type.String({
  minLength: 3,
  maxLength: 253,
  pattern: '^(?=.{3,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}$',
  description: 'An email domain, such as example.com',
});

const fields = {
  issuer: Type.String({
    pattern: '^https?://[^\\s?#]+$',
    maxLength: 500,
    description: "The provider's issuer URL, whose /.well-known/openid-configuration is fetched (https; http only with SSO_ALLOW_PRIVATE_ISSUER)",
  }),
  clientId: Type.String({ minLength: 1, maxLength: 500 }),
  allowedDomains: Type.Array(Domain, {
    minItems: 1,
    maxItems: 50,
    description:
      'Email domains this organization claims. A new one is pending until the instance operator verifies it (docs/sso.md, Domains); only a verified domain signs people in, and creates them at first sign-in. A domain verified for another organization is refused (409 domain_taken).',
  }),
  groupsClaim: Type.String({ minLength: 1, maxLength: 100, default: 'groups', description: 'The ID token claim that lists the groups (default groups)' }),
  roleMapping: Type.Record(Group, MappedRole, { default: {}, description: 'Group → role, applied at every sign-in (the highest wins; none: member)' }),
  teamMapping: Type.Record(Group, Type.String({ minLength: 1, maxLength: 100 }), {
    default: {},
    description: 'Group → team (its id or name), applied at every sign-in: a person is in a mapped team exactly while in one of its groups',
  }),
  required: Type.Boolean({ default: false, description: 'Passwords stop working for everyone but owners (break-glass)' }),
  trustUnverifiedEmails: Type.Boolean({
    default: false,
    description:
      'Sign in with an ID token that has no email_verified claim (providers that never send it, such as Entra ID): every email the provider issues is trusted as its owner. An email marked unverified is refused either way.',
  }),
};

export const SsoConfigBody = Type.Object(
  {
    ...fields,
    clientSecret: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, description: 'Write-only; required the first time, kept when omitted later. Never returned.' }),
    ),
  },
  { additionalProperties: false },
);

const SsoDomain = Type.Object({
  domain: Type.String(),
  verified: Type.Boolean({ description: 'Whether the domain signs people in: verified by the instance operator' }),
  verifiedAt: Type.Union([EpochMs, Type.Null()]),
  verifiedBy: Type.Union([Type.Literal('operator'), Type.Literal('allow_list'), Type.Literal('upgrade'), Type.Null()], {
    description:
      "operator (orgctl sso verify-domain with the token), allow_list (the operator's SSO_VERIFIED_DOMAINS), upgrade (configured before domains were verified); null while pending",
  }),
  verificationToken: Type.Union([Type.String(), Type.Null()], {
    description:
      'While pending: the token to give the instance operator, who verifies the domain with it (orgctl sso verify-domain DOMAIN --token TOKEN); null once verified',
  }),
});

export const SsoConfig = Type.Object(
  {
    issuer: Type.String(),
    clientId: Type.String(),
    clientSecretSet: Type.Boolean({ description: 'A client secret is stored (it is never returned)' }),
    allowedDomains: Type.Array(Type.String(), { description: 'Every claimed domain, verified or pending' }),
    domains: Type.Array(SsoDomain, { description: 'Each claimed domain and whether it is verified' }),
    groupsClaim: Type.String(),
    roleMapping: Type.Record(Type.String(), MappedRole),
    teamMapping: Type.Record(Type.String(), Type.String({ description: "The team's id" })),
    required: Type.Boolean(),
    trustUnverifiedEmails: Type.Boolean(),
    redirectUri: Type.String({ description: 'The sign-in redirect URI to register at the identity provider' }),
    createdAt: EpochMs,
    updatedAt: EpochMs,
  },
  { $id: 'SsoConfig', title: 'SsoConfig' },
);

export const SsoEvent = Type.Object({
  id: Type.String({ format: 'uuid' }),
  at: EpochMs,
  kind: Type.Union(
    ['sign_in', 'sign_in_failed', 'user_created', 'role_changed', 'teams_changed', 'break_glass'].map((k) => Type.Literal(k)),
    {
      description:
        'sign_in, sign_in_failed (reason says why), user_created (just in time), role_changed, teams_changed (by the mapping), break_glass (an owner signed in with a password while SSO is required)',
    },
  ),
  email: Type.Union([Type.String(), Type.Null()]),
  principalId: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
  detail: Type.Record(Type.String(), Type.Unknown()),
});
export const SsoEventList = Type.Object({
  events: Type.Array(SsoEvent),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as ?cursor= for older events; null at the end' }),
});
export const SsoEventQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const SsoStartQuery = Type.Object({ email: Type.String({ format: 'email', maxLength: 320 }) }, { additionalProperties: false });
const Param = Type.Optional(Type.String({ maxLength: 4096 }));
/** What a provider sends back (RFC 6749 §4.1.2, RFC 9207 `iss`); the callback hands all of it to openid-client. */
export const SsoCallbackQuery = Type.Object({
  code: Param,
  state: Param,
  iss: Param,
  session_state: Param,
  error: Param,
  error_description: Param,
  error_uri: Param,
});
