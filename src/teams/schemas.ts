import { Type } from '@sinclair/typebox';
import { UuidParam } from '../core/http/params.js';
import { RoleSchema } from '../core/identity/schemas.js';

const Uuid = Type.String({ format: 'uuid' });
const EpochMs = Type.Integer({ minimum: 0, description: 'Unix time in milliseconds' });

/** The most members one request may name: a team is a group of people, not the whole directory. */
const MAX_MEMBERS_PER_REQUEST = 1000;

/**
 * 1 to 100 characters, no control characters, not starting or ending with a space: "Platform" and
 * "Platform " would look the same in every list.
 */
export const TeamName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^(?!\\s)(?!.*\\s$)[^\\u0000-\\u001f\\u007f-\\u009f]+$',
  description: '1 to 100 characters, no control characters, no leading or trailing space; unique in the organization regardless of case',
});

const UserIds = Type.Array(Uuid, {
  maxItems: MAX_MEMBERS_PER_REQUEST,
  uniqueItems: true,
  description: 'User ids of the organization (GET /api/v0/organization/members); service accounts cannot be members',
});

export const TeamIdParams = Type.Object({ teamId: UuidParam('Team', 'team_not_found') });
export const TeamMemberParams = Type.Object({ teamId: UuidParam('Team', 'team_not_found'), userId: UuidParam('User', 'user_not_found') });

export const CreateTeamBody = Type.Object({ name: TeamName, userIds: Type.Optional(UserIds) }, { additionalProperties: false });
export const RenameTeamBody = Type.Object({ name: TeamName }, { additionalProperties: false });
export const SetMembersBody = Type.Object({ userIds: UserIds }, { additionalProperties: false });

const TeamMember = Type.Object({ id: Uuid, email: Type.String(), name: Type.String(), role: RoleSchema });
export const Team = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    monthlyBudget: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description: 'Standard Credits the team may use per calendar month (UTC), all members together; null: no budget (docs/teams.md)',
    }),
    members: Type.Array(TeamMember, { description: 'Ordered by email' }),
    createdAt: EpochMs,
    updatedAt: Type.Integer({ minimum: 0, description: 'The last rename or change of members, Unix ms' }),
  },
  { $id: 'Team', title: 'Team' },
);
export const TeamList = Type.Object({ teams: Type.Array(Type.Ref(Team), { description: 'Teams not deleted, ordered by name' }) });
