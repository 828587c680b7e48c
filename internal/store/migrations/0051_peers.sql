-- Other labs this one shows and steers the runs of (peers). The token is
-- the bearer secret the peer issued (`lab token create --relay`): unlike
-- this lab's own tokens it must be kept as is, to be sent. It never
-- leaves through the API; the database file is private to its user.
CREATE TABLE peers (
	name       TEXT    PRIMARY KEY,
	url        TEXT    NOT NULL,
	token      TEXT    NOT NULL,
	allow_http INTEGER NOT NULL DEFAULT 0, -- plain http to a host that is not loopback, allowed by the operator
	created_at INTEGER NOT NULL            -- unix seconds
);
