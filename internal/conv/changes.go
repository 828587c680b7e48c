package conv

import "time"

// FileStatus says how a file changed.
type FileStatus string

const (
	FileAdded    FileStatus = "added"
	FileModified FileStatus = "modified"
	FileDeleted  FileStatus = "deleted"
	FileRenamed  FileStatus = "renamed"
)

// Since names the point a run's changes are counted from.
type Since string

const (
	SinceStart Since = "start" // the run started
	SinceTurn  Since = "turn"  // the current (or last) turn began
)

// Changes are the files of a run's folder that differ from a snapshot.
type Changes struct {
	Since Since `json:"since"`
	// Base is the snapshot compared against; Latest the newest one (the
	// start, or where the last turn lab saw end left the folder).
	Base   SnapshotInfo `json:"base"`
	Latest SnapshotInfo `json:"latest"`
	// Current says what the base is compared with: "folder" (the folder
	// as it is now) or "snapshot" (its last snapshot: the folder is gone,
	// a removed worktree say).
	Current string       `json:"current"`
	Files   []FileChange `json:"files"`
	// Added and Removed total the files' line counts.
	Added   int `json:"added"`
	Removed int `json:"removed"`
}

// SnapshotInfo describes one snapshot of a run's folder.
type SnapshotInfo struct {
	TakenAt time.Time `json:"taken_at"`
	// Turn is how many of the operator's prompts the chat held when it
	// was taken: 0 for the snapshot taken as the run started.
	Turn int `json:"turn"`
}

// FileChange is one changed file. Paths are relative to the run's
// folder, slash-separated.
type FileChange struct {
	Path    string     `json:"path"`
	OldPath string     `json:"old_path,omitempty"` // a rename's source
	Status  FileStatus `json:"status"`
	// Binary says there are no lines to count or show.
	Binary bool `json:"binary"`
	// Submodule says the path is a submodule: its commit changed.
	Submodule bool `json:"submodule,omitempty"`
	Added     int  `json:"added"`
	Removed   int  `json:"removed"`
}

// FileDiff is one file's change as a unified diff, the same form a
// permission prompt's file change takes (Permission.Diff). Diff is never
// cut: a file too large to diff, a binary file or a submodule has no
// Diff, and Note says why.
type FileDiff struct {
	Path    string     `json:"path"`
	OldPath string     `json:"old_path,omitempty"`
	Status  FileStatus `json:"status"`
	Binary  bool       `json:"binary"`
	// TooLarge says a side is past what lab diffs (see Note).
	TooLarge bool   `json:"too_large,omitempty"`
	Diff     string `json:"diff,omitempty"`
	Note     string `json:"note,omitempty"`
	// OldSize and NewSize are the sides' sizes in bytes (0 when absent).
	OldSize int64 `json:"old_size"`
	NewSize int64 `json:"new_size"`
}

// FileView is a file of a run's folder as it is now.
type FileView struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
	// Text is the file's content (UTF-8), at most a cap: Truncated says
	// it is the start only.
	Text      string `json:"text"`
	Truncated bool   `json:"truncated,omitempty"`
	Binary    bool   `json:"binary,omitempty"` // no Text: not a text file
}

// TouchedFiles are the files a conversation's tool calls wrote, for a
// session lab kept no snapshots of (history).
type TouchedFiles struct {
	// Folder is the session's folder; paths inside it are relative to it.
	Folder string        `json:"folder"`
	Files  []TouchedFile `json:"files"`
}

// TouchedFile is one file tool calls wrote.
type TouchedFile struct {
	Path  string `json:"path"`
	Calls int    `json:"calls"` // how many calls wrote it
	// Outside says the path is not in the session's folder (it is then
	// absolute, and cannot be opened here).
	Outside bool `json:"outside,omitempty"`
}

// Worktree is the git worktree lab made for a run that asked for one
// (StartRequest.Worktree): the run works there, on its own branch.
type Worktree struct {
	Path    string `json:"path"`
	Branch  string `json:"branch"`
	Base    string `json:"base"`               // the commit the branch was made from
	BaseRef string `json:"base_ref,omitempty"` // the branch HEAD was on then, "" when detached
	Repo    string `json:"repo"`               // the repository's main working tree
	// Removed is when lab removed the worktree (the branch stays).
	Removed *time.Time `json:"removed_at,omitempty"`
	// Merge is the command that merges the branch, run in Repo.
	Merge string `json:"merge"`
}

// CommitRequest commits a worktree run's changes on its branch.
type CommitRequest struct {
	Message string `json:"message,omitempty"` // default: the run's title
}

// CommitResult is the commit made.
type CommitResult struct {
	Commit string `json:"commit"`
	Branch string `json:"branch"`
}

// RemoveWorktreeRequest removes a worktree run's worktree.
type RemoveWorktreeRequest struct {
	// Force removes it although it holds uncommitted changes, which are
	// lost; without it that is refused (409).
	Force bool `json:"force,omitempty"`
}
