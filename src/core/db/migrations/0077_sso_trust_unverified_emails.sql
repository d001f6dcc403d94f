-- An ID token signs a person in only when the provider marks its email verified. Providers that
-- never send email_verified (Entra ID's optional email claim) sign in only where the owner has
-- said the organization trusts every email the provider issues; off unless set.
ALTER TABLE sso_configs ADD COLUMN trust_unverified_emails boolean NOT NULL DEFAULT false;
