package httpapi

import (
	"context"
	"net/http"

	"lab/internal/conv"
)

// Folders answers the new-run form's folder picker: directories only,
// under the configured roots. Errors: EInvalid for a query that could
// leave a root (".."), or holds control characters.
type Folders interface {
	List(ctx context.Context, q string, limit int) (conv.FolderList, error)
}

func (s *Server) listFolders(w http.ResponseWriter, r *http.Request) error {
	if s.cfg.Folders == nil {
		return conv.Errorf(conv.EUnavailable, "this server has no folder picker configured")
	}
	v := r.URL.Query()
	limit, err := intParam(v, "limit", 0, 0)
	if err != nil {
		return err
	}
	list, err := s.cfg.Folders.List(r.Context(), v.Get("q"), limit)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, list)
	return nil
}
