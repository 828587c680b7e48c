-- Archiving hides an ended run from the runs list without losing it:
-- archived_at is when the operator archived it (unix ms), NULL otherwise.
ALTER TABLE runs ADD COLUMN archived_at INTEGER;
