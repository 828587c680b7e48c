// Package webui serves lab's single-page web app from the build embedded in
// the binary. `make web` builds web/ with Vite and copies its output into
// internal/webui/dist, which this package embeds. When that directory holds
// no build (a plain `go build` on a machine without Node), every page is a
// small placeholder that says how to build the app, so the binary still
// builds and serves its API.
//
// Files are served with their content type, gzip when the client accepts
// it, an ETag, long immutable caching for Vite's content-hashed assets and
// revalidation for everything else. Paths that look like client routes (no
// file extension) get index.html, so deep links and reloads work; paths
// under /api/ are never answered with the app.
package webui

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
)

//go:embed all:dist
var embedded embed.FS

//go:embed placeholder.html
var placeholder []byte

// securityHeaders go on every response of the app. The policy allows only
// the app's own scripts, so even markup that slipped past the sanitizer
// could not run code. Images may also be blob: URLs: the previews of
// photos the operator picks to attach, made by the page from the files.
var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; " +
		"frame-ancestors 'none'; form-action 'self'",
	"X-Content-Type-Options": "nosniff",
	"Referrer-Policy":        "no-referrer",
	"X-Frame-Options":        "DENY",
}

// file is one servable file, prepared once at start.
type file struct {
	body  []byte
	gz    []byte // nil when compression does not pay
	ctype string
	etag  string
	cache string
}

// site is the prepared app: every file by its URL path.
type site struct {
	files map[string]*file
	built bool
}

// Handler returns the handler for the embedded app. Mount it at "/" after
// the API routes.
func Handler() http.Handler {
	return newSite(mustSub(embedded, "dist"))
}

// Built reports whether the binary embeds a real build (not the placeholder).
func Built() bool {
	_, err := fs.Stat(mustSub(embedded, "dist"), "index.html")
	return err == nil
}

func mustSub(f fs.FS, dir string) fs.FS {
	s, err := fs.Sub(f, dir)
	if err != nil { // cannot happen: dir is a literal embedded directory
		panic(err)
	}
	return s
}

// newSite reads every file of fsys into memory. The build is small (tens of
// kilobytes), and preparing gzip and ETags once keeps serving trivial.
func newSite(fsys fs.FS) *site {
	s := &site{files: map[string]*file{}}
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(path.Base(p), ".") {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil
		}
		s.files["/"+p] = prepare(p, b)
		return nil
	})
	if _, ok := s.files["/index.html"]; ok {
		s.built = true
	} else {
		s.files["/index.html"] = prepare("index.html", placeholder)
	}
	return s
}

func prepare(p string, b []byte) *file {
	sum := sha256.Sum256(b)
	f := &file{body: b, ctype: contentType(p), etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	switch {
	case strings.HasPrefix(p, "assets/"):
		// Vite names these by content hash: a new build means a new name.
		f.cache = "public, max-age=31536000, immutable"
	default:
		// index.html, the manifest, the icons and the service worker
		// (sw.js, whose scope is its folder, so it lives at the root)
		// keep their names across builds, so the browser must
		// revalidate them.
		f.cache = "no-cache"
	}
	if compressible(f.ctype) && len(b) > 512 {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		if buf.Len() < len(b)*9/10 {
			f.gz = buf.Bytes()
		}
	}
	return f
}

var extraTypes = map[string]string{
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".html":        "text/html; charset=utf-8",
	".svg":         "image/svg+xml",
	".json":        "application/json",
	".webmanifest": "application/manifest+json",
	".png":         "image/png",
	".ico":         "image/x-icon",
	".woff2":       "font/woff2",
	".txt":         "text/plain; charset=utf-8",
	".map":         "application/json",
}

// contentType is fixed for the types the app ships, so it does not depend
// on the host's mime tables.
func contentType(p string) string {
	ext := strings.ToLower(path.Ext(p))
	if t, ok := extraTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

func compressible(ctype string) bool {
	return strings.HasPrefix(ctype, "text/") || strings.Contains(ctype, "json") ||
		strings.Contains(ctype, "javascript") || strings.HasPrefix(ctype, "image/svg")
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := path.Clean("/" + r.URL.Path)
	if p == "/api" || strings.HasPrefix(p, "/api/") {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":"not found"}` + "\n"))
		return
	}
	f, ok := s.files[p]
	if !ok {
		if path.Ext(p) != "" || strings.HasPrefix(p, "/assets/") {
			// A missing file is a 404, never the app's HTML under a
			// script's or an image's name.
			http.NotFound(w, r)
			return
		}
		f = s.files["/index.html"] // a client route
	}
	h := w.Header()
	for k, v := range securityHeaders {
		h.Set(k, v)
	}
	h.Set("Content-Type", f.ctype)
	h.Set("Cache-Control", f.cache)
	h.Set("ETag", f.etag)
	if f.gz != nil {
		h.Add("Vary", "Accept-Encoding")
	}
	if etagMatch(r.Header.Get("If-None-Match"), f.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := f.body
	if f.gz != nil && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
		body = f.gz
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(body)
}

func etagMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "W/"))
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// acceptsGzip reads Accept-Encoding, honouring an explicit q=0.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(strings.ToLower(name)) != "gzip" {
			continue
		}
		q := strings.ReplaceAll(params, " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}
