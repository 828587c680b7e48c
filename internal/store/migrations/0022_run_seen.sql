-- seen_at marks how far the operator has read a run (unix ms, NULL
-- never): the time a page last had its chat on screen, or the newest
-- message's time if that was later. A run whose turn ended is "seen"
-- while its last activity is not after seen_at.
ALTER TABLE runs ADD COLUMN seen_at INTEGER;
