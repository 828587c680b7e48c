package main

import (
	"context"
	"io"

	"lab/internal/chat"
	"lab/internal/conv"
	"lab/internal/runs"
	"lab/internal/uploads"
)

// uploadsAPI fits the uploads store to the API and the chat layer: a
// run's uploads live in its own folder (the runs service knows where),
// and the images a chat shows come from the chat layer's folds.
type uploadsAPI struct {
	rs    *runs.Service
	store *uploads.Store
	svc   *chat.Service
	lib   *chat.Library
}

// dir is run id's uploads folder. ENotFound for an unknown run.
func (a uploadsAPI) dir(ctx context.Context, id string) (string, error) {
	rec, err := a.rs.Record(ctx, id)
	if err != nil {
		return "", err
	}
	return uploads.RunDir(rec.RunDir), nil
}

func (a uploadsAPI) Put(ctx context.Context, runID, name, mediaType string, body io.Reader) (conv.Upload, error) {
	if runID == "" {
		return a.store.Stage(name, mediaType, body)
	}
	dir, err := a.dir(ctx, runID)
	if err != nil {
		return conv.Upload{}, err
	}
	return a.store.Put(dir, name, mediaType, body)
}

// Resolve finds run runID's uploads by id for a reply (chat.UploadsFunc):
// EInvalid for an id the run has no upload of.
func (a uploadsAPI) Resolve(ctx context.Context, runID string, ids []string) ([]conv.Upload, error) {
	dir, err := a.dir(ctx, runID)
	if err != nil {
		return nil, err
	}
	out := make([]conv.Upload, 0, len(ids))
	for _, id := range ids {
		u, err := a.store.Get(dir, id)
		if err != nil {
			return nil, conv.Wrap(conv.EInvalid, err, "upload "+id+": "+conv.MessageOf(err))
		}
		out = append(out, u)
	}
	return out, nil
}

func (a uploadsAPI) RunImage(ctx context.Context, runID string, seq, n int) (conv.Image, error) {
	return a.svc.Image(ctx, runID, seq, n)
}

func (a uploadsAPI) SessionImage(ctx context.Context, sessionID string, seq, n int) (conv.Image, error) {
	return a.lib.SessionImage(ctx, sessionID, seq, n)
}
