-- Words a CLI drew while a turn streamed but never wrote to its
-- transcript (Codex keeps no partial text when a turn is interrupted):
-- lab's own copy of what the operator saw, by transcript file and the
-- seq it follows. The transcript stays the source of truth for
-- everything else; these are served beside it, marked as lab's.
CREATE TABLE partial_texts (
	transcript TEXT    NOT NULL,
	after_seq  INTEGER NOT NULL,
	text       TEXT    NOT NULL,
	created_at INTEGER NOT NULL, -- unix ms
	PRIMARY KEY (transcript, after_seq)
);
