-- Attached runs follow a CLI process lab did not start (the operator ran
-- it in a terminal). attach_pid > 0 marks one; attach_proc_start tells that
-- process from a later one with the same pid; the socket and pane say
-- where it runs in the operator's tmux, empty when it does not (then
-- attach_read_only says why lab can only follow it).
ALTER TABLE runs ADD COLUMN attach_pid INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN attach_proc_start TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN attach_socket TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN attach_pane TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN attach_tmux_session TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN attach_read_only TEXT NOT NULL DEFAULT '';
