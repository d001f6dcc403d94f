import { MAX_OPERATIONS } from './patch.js';
import { GROUP_SCHEMA, USER_SCHEMA } from './resources.js';

/** Most resources one list answers with: a larger `count` is cut to this (RFC 7644 §3.4.2.4). */
export const MAX_RESULTS = 200;

const attr = (name: string, type: string, o: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...o,
});

export function serviceProviderConfig(base: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    // maxOperations is not among RFC 7643's patch attributes: clients ignore it, people read it.
    patch: { supported: true, maxOperations: MAX_OPERATIONS },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: 'A SCIM token of the organization (ocs_…), made by an owner: orgctl scim token create.',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

export function resourceTypes(base: string) {
  return [
    { id: 'User', name: 'User', endpoint: '/Users', description: 'A person of the organization; userName is their email.', schema: USER_SCHEMA },
    { id: 'Group', name: 'Group', endpoint: '/Groups', description: 'A team of the organization.', schema: GROUP_SCHEMA },
  ].map((t) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    ...t,
    schemaExtensions: [],
    meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/${t.id}` },
  }));
}

export function schemas(base: string) {
  const user = {
    id: USER_SCHEMA,
    name: 'User',
    description: 'A person of the organization',
    attributes: [
      attr('userName', 'string', { required: true, uniqueness: 'server', description: 'The email the person signs in with.' }),
      attr('name', 'complex', {
        subAttributes: [attr('givenName', 'string'), attr('familyName', 'string'), attr('formatted', 'string', { mutability: 'readOnly' })],
      }),
      attr('displayName', 'string'),
      attr('emails', 'complex', {
        multiValued: true,
        mutability: 'readOnly',
        description: 'The userName, as the work email.',
        subAttributes: [attr('value', 'string'), attr('type', 'string'), attr('primary', 'boolean')],
      }),
      attr('active', 'boolean', { description: 'false removes the person from orgctl (keys and sessions end); true brings them back.' }),
      attr('externalId', 'string', { caseExact: true }),
    ],
  };
  const group = {
    id: GROUP_SCHEMA,
    name: 'Group',
    description: 'A team of the organization',
    attributes: [
      attr('displayName', 'string', { required: true, uniqueness: 'server', description: 'The team name.' }),
      attr('members', 'complex', {
        multiValued: true,
        subAttributes: [
          attr('value', 'string', { caseExact: true, mutability: 'immutable', description: 'The user id.' }),
          attr('display', 'string', { mutability: 'readOnly' }),
          attr('$ref', 'reference', { mutability: 'readOnly', referenceTypes: ['User'] }),
        ],
      }),
      attr('externalId', 'string', { caseExact: true }),
    ],
  };
  return [user, group].map((s) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    ...s,
    meta: { resourceType: 'Schema', location: `${base}/Schemas/${s.id}` },
  }));
}
