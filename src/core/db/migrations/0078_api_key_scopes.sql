-- A key may be narrowed to the operations of a few scopes (the managed hooks and exporters'),
-- or act with its holder's whole role (`full`), which every key made before scopes keeps.
ALTER TABLE api_keys ADD COLUMN scopes text[] NOT NULL DEFAULT ARRAY['full']::text[];
ALTER TABLE api_keys ADD CONSTRAINT api_keys_scopes_check CHECK (
  cardinality(scopes) > 0
  AND scopes <@ ARRAY['full', 'telemetry:write', 'allowance:read', 'sessions:attribute']::text[]
);
