package conv

// Folder is one directory the folder picker offers.
type Folder struct {
	Path   string `json:"path"`             // absolute, as reached from a root (symlinks not resolved)
	Git    bool   `json:"git,omitempty"`    // holds a .git entry
	Recent bool   `json:"recent,omitempty"` // a run or a history session used it
	Root   bool   `json:"root,omitempty"`   // one of the configured roots
}

// FolderList answers a folder picker query.
type FolderList struct {
	Folders   []Folder `json:"folders"`
	Roots     []string `json:"roots"`     // the configured roots the picker may list under
	Home      string   `json:"home"`      // what "~" stands for
	Truncated bool     `json:"truncated"` // more folders matched than were returned
}
