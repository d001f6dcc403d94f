import { Type } from '@sinclair/typebox';
import { UuidParam } from '../http/params.js';
import { RoleSchema } from '../identity/schemas.js';

const Uuid = Type.String({ format: 'uuid' });
const EpochMs = Type.Integer({ minimum: 0, description: 'Unix time in milliseconds' });
const Email = Type.String({ format: 'email', maxLength: 320 });
const Password = Type.String({ minLength: 10, maxLength: 256, description: 'At least 10 characters' });
const Token = Type.String({ minLength: 16, maxLength: 200 });

export const SessionInfo = Type.Object({
  principalId: Uuid,
  kind: Type.Union([Type.Literal('user'), Type.Literal('service_account')]),
  email: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  role: RoleSchema,
  organization: Type.Object({ id: Uuid, name: Type.String() }),
  credential: Type.Union([Type.Literal('session'), Type.Literal('api_key'), Type.Literal('jwt')]),
  csrfToken: Type.Union([Type.String(), Type.Null()], {
    description: 'Send it as the x-csrf-token header of every write made with the session cookie; null for bearer credentials',
  }),
});

export const SetupBody = Type.Object({ token: Token, password: Password }, { additionalProperties: false });
export const LoginBody = Type.Object({ email: Email, password: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false });
export const PasswordBody = Type.Object(
  { currentPassword: Type.Optional(Type.String({ maxLength: 256, description: 'Required once the user has a password' })), newPassword: Password },
  { additionalProperties: false },
);

export const Session = Type.Object({
  id: Uuid,
  createdAt: EpochMs,
  lastSeenAt: EpochMs,
  expiresAt: Type.Integer({ description: 'When it ends unless used again (idle) or at the latest (absolute), Unix ms' }),
  userAgent: Type.Union([Type.String(), Type.Null()]),
  current: Type.Boolean({ description: 'The session of this request' }),
});
export const SessionList = Type.Object({ sessions: Type.Array(Session) });
export const SessionIdParams = Type.Object({ id: UuidParam('Session', 'session_not_found') });
export const MemberIdParams = Type.Object({ id: UuidParam('Member', 'user_not_found') });

export const InviteBody = Type.Object({ email: Email, role: RoleSchema }, { additionalProperties: false });
export const Invitation = Type.Object({ id: Uuid, email: Type.String(), role: RoleSchema, createdAt: EpochMs, expiresAt: EpochMs });
export const CreatedInvitation = Type.Composite([
  Invitation,
  Type.Object({
    token: Type.String({ description: 'Shown only in this response' }),
    url: Type.String({ description: 'The one-time link to send to the invited person' }),
  }),
]);
export const InvitationIdParams = Type.Object({ id: UuidParam('Invitation', 'invitation_not_found') });
export const InvitationList = Type.Object({ invitations: Type.Array(Invitation) });
export const AcceptBody = Type.Object(
  { token: Token, password: Password, name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) },
  { additionalProperties: false },
);

export const Member = Type.Object({ id: Uuid, email: Type.String(), name: Type.String(), role: RoleSchema, createdAt: EpochMs, hasPassword: Type.Boolean() });
export const MemberList = Type.Object({ members: Type.Array(Member) });
export const RoleBody = Type.Object({ role: RoleSchema }, { additionalProperties: false });
