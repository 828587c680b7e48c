-- Browsers that have logged in before ("known devices"). Each gets a
-- long-lived cookie holding its id signed with the key below; a login
-- attempt that shows one is rate-limited on its own, apart from the
-- attempts of everybody else. Changing the password forgets them all.

CREATE TABLE known_devices (
	id            TEXT    PRIMARY KEY, -- 32 hex digits, random
	created_at    INTEGER NOT NULL,
	last_login_at INTEGER NOT NULL
);
CREATE INDEX known_devices_last_login ON known_devices (last_login_at);

-- At most one row: the HMAC-SHA256 key that signs device cookies. It lets
-- nobody in: a device cookie only decides whose allowance a login attempt
-- is counted against, and the password is still needed.
CREATE TABLE device_key (
	id         INTEGER PRIMARY KEY CHECK (id = 1),
	key        BLOB    NOT NULL,
	created_at INTEGER NOT NULL
);
