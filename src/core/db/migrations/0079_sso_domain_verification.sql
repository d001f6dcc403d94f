-- A domain routes sign-ins (email domain -> organization) and creates people only once it is
-- verified: by the instance operator with the claim's token (orgctl sso verify-domain), or by the
-- operator's allow-list (SSO_VERIFIED_DOMAINS). Until then any number of organizations may claim
-- it, so that a claim made first blocks no one; verified, it belongs to one organization.
ALTER TABLE sso_domains ADD COLUMN verification_token text;
ALTER TABLE sso_domains ADD COLUMN verified_at timestamptz;
ALTER TABLE sso_domains ADD COLUMN verified_by text CHECK (verified_by IN ('operator', 'allow_list', 'upgrade'));

-- Domains configured before verification existed keep signing in: each was already one
-- organization's alone, and refusing them would lock people out at the upgrade (docs/sso.md).
UPDATE sso_domains SET verified_at = now(), verified_by = 'upgrade';

ALTER TABLE sso_domains ADD CONSTRAINT sso_domains_verified_check CHECK ((verified_at IS NULL) = (verified_by IS NULL));
ALTER TABLE sso_domains ADD CONSTRAINT sso_domains_token_check CHECK (verified_at IS NOT NULL OR verification_token IS NOT NULL);
ALTER TABLE sso_domains DROP CONSTRAINT sso_domains_pkey;
ALTER TABLE sso_domains ADD PRIMARY KEY (domain, org_id);
CREATE UNIQUE INDEX sso_domains_verified_idx ON sso_domains (domain) WHERE verified_at IS NOT NULL;
