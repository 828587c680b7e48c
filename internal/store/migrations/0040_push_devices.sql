-- Web Push subscriptions, one per browser that asked for notifications.
-- The endpoint is a capability URL of the browser's push service and the
-- keys encrypt what lab sends to it; both come from PushSubscription.
-- Times are unix milliseconds.
CREATE TABLE push_devices (
	id              TEXT    PRIMARY KEY,
	name            TEXT    NOT NULL,
	endpoint        TEXT    NOT NULL UNIQUE,
	p256dh          TEXT    NOT NULL,
	auth            TEXT    NOT NULL,
	push_blocked    INTEGER NOT NULL DEFAULT 1, -- push when a run waits on a dialog
	push_turn_end   INTEGER NOT NULL DEFAULT 0, -- a quieter push when a turn ends
	include_content INTEGER NOT NULL DEFAULT 0, -- put conversation text in the push
	created_at      INTEGER NOT NULL,
	last_push_at    INTEGER,
	last_error      TEXT    NOT NULL DEFAULT ''
);
