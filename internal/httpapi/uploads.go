package httpapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"

	"lab/internal/conv"
)

// Uploads keeps the files the operator sends for an agent and serves the
// images a chat shows. Errors: ENotFound for an unknown run, session,
// message or attachment; ETooLarge for a file over the limit and
// EInvalid for a refused one (an empty file, a declared image whose bytes
// are not one), nothing kept in either case.
type Uploads interface {
	// Put stores a file for run runID, or stages it for a run about to
	// start when runID is "". name and mediaType are what the client
	// said; lab sniffs the bytes and names the file itself.
	Put(ctx context.Context, runID, name, mediaType string, body io.Reader) (conv.Upload, error)
	// RunImage and SessionImage return image n (0-based) of message seq
	// of a run's or a history session's chat, read from its transcript.
	RunImage(ctx context.Context, runID string, seq, n int) (conv.Image, error)
	SessionImage(ctx context.Context, sessionID string, seq, n int) (conv.Image, error)
}

// uploadOverhead is what a multipart body may carry besides the file.
const uploadOverhead = 64 << 10

// uploadReadTime bounds how long an upload may take to arrive: a phone's
// photo over a slow uplink needs longer than the server's read timeout.
const uploadReadTime = 10 * time.Minute

func (s *Server) uploads() (Uploads, error) {
	if s.cfg.Uploads == nil {
		return nil, conv.Errorf(conv.EUnavailable, "this server takes no uploads")
	}
	return s.cfg.Uploads, nil
}

// upload stores the request's file: a multipart form's first file part
// (its file name and Content-Type), or the raw body (?name=, and the
// request's Content-Type). 201 with the Upload.
func (s *Server) upload(staged bool) apiFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		up, err := s.uploads()
		if err != nil {
			return err
		}
		runID := r.PathValue("id")
		if staged {
			runID = ""
		}
		rc := http.NewResponseController(w)
		_ = rc.SetReadDeadline(time.Now().Add(uploadReadTime))
		// The server's write timeout counts from the request's start: a
		// slow upload that arrived whole must still get its answer.
		_ = rc.SetWriteDeadline(time.Now().Add(uploadReadTime + 30*time.Second))
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxUploadBytes+uploadOverhead)
		name, typ, body, err := uploadPart(r)
		if err != nil {
			return err
		}
		u, err := up.Put(r.Context(), runID, name, typ, body)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusCreated, u)
		return nil
	}
}

// uploadPart finds the file in r: the first file part of a multipart
// form, else the whole body.
func uploadPart(r *http.Request) (name, typ string, body io.Reader, err error) {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct != "multipart/form-data" {
		return r.URL.Query().Get("name"), r.Header.Get("Content-Type"), r.Body, nil
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return "", "", nil, conv.Errorf(conv.EInvalid, "malformed multipart body: %v", err)
	}
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return "", "", nil, conv.Errorf(conv.EInvalid, "the form holds no file: send it as a file part (or as the raw body)")
		}
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return "", "", nil, conv.Wrap(conv.ETooLarge, err, "the upload is too large")
			}
			return "", "", nil, conv.Errorf(conv.EInvalid, "malformed multipart body: %v", err)
		}
		if p.FileName() != "" {
			return p.FileName(), p.Header.Get("Content-Type"), p, nil
		}
		p.Close()
	}
}

// image serves image n of message seq of a run's or session's chat with
// the type its bytes show.
func (s *Server) image(session bool) apiFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		up, err := s.uploads()
		if err != nil {
			return err
		}
		seq, err1 := strconv.Atoi(r.PathValue("seq"))
		n, err2 := strconv.Atoi(r.PathValue("n"))
		if err1 != nil || err2 != nil || seq < 1 || n < 0 {
			return conv.Errorf(conv.EInvalid, "want /attachments/{seq}/{n} with a message seq from 1 and an attachment index from 0")
		}
		var img conv.Image
		if session {
			img, err = up.SessionImage(r.Context(), r.PathValue("id"), seq, n)
		} else {
			img, err = up.RunImage(r.Context(), r.PathValue("id"), seq, n)
		}
		if err != nil {
			return err
		}
		h := w.Header()
		h.Set("Content-Type", img.MediaType)
		h.Set("Content-Length", strconv.Itoa(len(img.Data)))
		// The bytes came from an agent's transcript: never a document.
		h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
		h.Set("Content-Disposition", fmt.Sprintf("inline; filename=\"attachment-%d-%d\"", seq, n))
		w.WriteHeader(http.StatusOK)
		w.Write(img.Data) // a client gone mid-image is nothing to report
		return nil
	}
}

func (s *Server) getRun(w http.ResponseWriter, r *http.Request) error {
	run, err := s.cfg.Runs.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.stampRun(run))
	return nil
}
