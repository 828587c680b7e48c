-- Answers to requests that carried an Idempotency-Key (a reply or an
-- answer the web app may send again when it could not tell whether the
-- first attempt landed): the same key gets the same answer instead of a
-- second reply typed into the run. Kept for a day.
CREATE TABLE idempotency (
	key        TEXT    PRIMARY KEY,
	request    TEXT    NOT NULL, -- "POST /api/v1/runs/<id>/reply": a key names one request
	status     INTEGER NOT NULL,
	body       BLOB    NOT NULL,
	created_at INTEGER NOT NULL  -- unix seconds
);
CREATE INDEX idempotency_created ON idempotency (created_at);
