-- What a bearer token may do: '' for everything (a script), 'relay' for
-- only what a hub relays to this lab (runs, sessions, providers, folders,
-- events): never tokens, peers, push devices or the password.
ALTER TABLE api_tokens ADD COLUMN scope TEXT NOT NULL DEFAULT '';
