-- The operator account, browser login sessions, bearer API tokens and the
-- one-time setup token. Secrets are never stored: only their SHA-256
-- (sessions, tokens, setup) or an argon2id hash (the password).

-- At most one row: lab has one operator.
CREATE TABLE operator (
	id            INTEGER PRIMARY KEY CHECK (id = 1),
	password_hash TEXT    NOT NULL,
	updated_at    INTEGER NOT NULL
);

CREATE TABLE login_sessions (
	token_hash   BLOB    PRIMARY KEY,
	csrf_token   TEXT    NOT NULL,
	created_at   INTEGER NOT NULL,
	renewed_at   INTEGER NOT NULL,
	expires_at   INTEGER NOT NULL
);
CREATE INDEX login_sessions_expires ON login_sessions (expires_at);

CREATE TABLE api_tokens (
	id           TEXT    PRIMARY KEY,
	name         TEXT    NOT NULL UNIQUE,
	token_hash   BLOB    NOT NULL UNIQUE,
	created_at   INTEGER NOT NULL,
	last_used_at INTEGER
);

CREATE TABLE setup_tokens (
	token_hash BLOB    PRIMARY KEY,
	created_at INTEGER NOT NULL,
	expires_at INTEGER NOT NULL
);
