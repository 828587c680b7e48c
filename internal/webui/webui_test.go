package webui

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

// built is a small stand-in for a Vite build.
func built() fstest.MapFS {
	js := strings.Repeat("console.log('lab');\n", 200)
	return fstest.MapFS{
		"index.html":              {Data: []byte(`<!doctype html><div id="app"></div><script type="module" src="/assets/index-abc123.js"></script>`)},
		"assets/index-abc123.js":  {Data: []byte(js)},
		"assets/index-def456.css": {Data: []byte("body{margin:0}")},
		"manifest.webmanifest":    {Data: []byte(`{"name":"lab"}`)},
		"sw.js":                   {Data: []byte(`(function(){self.addEventListener("push",()=>{})})();`)},
		"icon.svg":                {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)},
		"icon-192.png":            {Data: []byte("\x89PNG\r\n\x1a\n")},
		".gitignore":              {Data: []byte("*\n")},
	}
}

func get(t *testing.T, h http.Handler, method, target string, hdr map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestServeBuilt(t *testing.T) {
	h := newSite(built())
	tests := []struct {
		name   string
		target string
		status int
		ctype  string
		cache  string
		body   string // a substring of the body, "" to skip
	}{
		{"root is index", "/", 200, "text/html; charset=utf-8", "no-cache", `<div id="app">`},
		{"index by name", "/index.html", 200, "text/html; charset=utf-8", "no-cache", `<div id="app">`},
		{"client route falls back to index", "/runs/r-42", 200, "text/html; charset=utf-8", "no-cache", `<div id="app">`},
		{"nested client route", "/history/abc", 200, "text/html; charset=utf-8", "no-cache", `<div id="app">`},
		{"hashed js is immutable", "/assets/index-abc123.js", 200, "text/javascript; charset=utf-8", "public, max-age=31536000, immutable", "console.log"},
		{"hashed css", "/assets/index-def456.css", 200, "text/css; charset=utf-8", "public, max-age=31536000, immutable", "margin"},
		// The service worker keeps its name across builds and must be
		// revalidated, never cached as immutable, or a phone would keep an
		// old worker; it must be served as JavaScript or registration fails.
		{"service worker at the root", "/sw.js", 200, "text/javascript; charset=utf-8", "no-cache", `addEventListener("push"`},
		{"manifest type", "/manifest.webmanifest", 200, "application/manifest+json", "no-cache", `"lab"`},
		{"svg icon", "/icon.svg", 200, "image/svg+xml", "no-cache", "<svg"},
		{"png icon", "/icon-192.png", 200, "image/png", "no-cache", "PNG"},
		{"missing asset is 404, not html", "/assets/index-gone.js", 404, "", "", ""},
		{"missing file with extension is 404", "/favicon.ico", 404, "", "", ""},
		{"dotfiles are not served", "/.gitignore", 404, "", "", ""},
		{"api paths never get the app", "/api/v1/nope", 404, "application/json", "", `"error"`},
		{"path traversal is cleaned", "/../../etc/passwd", 200, "text/html; charset=utf-8", "no-cache", `<div id="app">`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := get(t, h, "GET", tt.target, nil)
			if rec.Code != tt.status {
				t.Fatalf("status: got %d; want %d", rec.Code, tt.status)
			}
			if tt.ctype != "" {
				if got := rec.Header().Get("Content-Type"); got != tt.ctype {
					t.Errorf("Content-Type: got %q; want %q", got, tt.ctype)
				}
			}
			if got := rec.Header().Get("Cache-Control"); tt.cache != "" && got != tt.cache {
				t.Errorf("Cache-Control: got %q; want %q", got, tt.cache)
			}
			if tt.body != "" && !strings.Contains(rec.Body.String(), tt.body) {
				t.Errorf("body: got %q; want it to contain %q", rec.Body.String(), tt.body)
			}
			if rec.Code == 200 {
				if got := rec.Header().Get("X-Content-Type-Options"); got != "nosniff" {
					t.Errorf("X-Content-Type-Options: got %q; want nosniff", got)
				}
				if got := rec.Header().Get("Content-Security-Policy"); !strings.Contains(got, "script-src 'self'") {
					t.Errorf("CSP: got %q; want script-src 'self'", got)
				}
			}
		})
	}
}

func TestGzipAndETag(t *testing.T) {
	h := newSite(built())
	plain := get(t, h, "GET", "/assets/index-abc123.js", nil)
	if plain.Header().Get("Content-Encoding") != "" {
		t.Fatalf("Content-Encoding without Accept-Encoding: got %q; want none", plain.Header().Get("Content-Encoding"))
	}
	zipped := get(t, h, "GET", "/assets/index-abc123.js", map[string]string{"Accept-Encoding": "br, gzip"})
	if got := zipped.Header().Get("Content-Encoding"); got != "gzip" {
		t.Fatalf("Content-Encoding: got %q; want gzip", got)
	}
	if zipped.Body.Len() >= plain.Body.Len() {
		t.Errorf("gzip body %d bytes; want fewer than %d", zipped.Body.Len(), plain.Body.Len())
	}
	zr, err := gzip.NewReader(bytes.NewReader(zipped.Body.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	un, _ := io.ReadAll(zr)
	if !bytes.Equal(un, plain.Body.Bytes()) {
		t.Errorf("gunzipped body differs from the plain one")
	}
	if got := zipped.Header().Get("Vary"); got != "Accept-Encoding" {
		t.Errorf("Vary: got %q; want Accept-Encoding", got)
	}
	refused := get(t, h, "GET", "/assets/index-abc123.js", map[string]string{"Accept-Encoding": "gzip;q=0"})
	if got := refused.Header().Get("Content-Encoding"); got != "" {
		t.Errorf("gzip;q=0: got Content-Encoding %q; want none", got)
	}

	etag := plain.Header().Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	notMod := get(t, h, "GET", "/assets/index-abc123.js", map[string]string{"If-None-Match": etag})
	if notMod.Code != http.StatusNotModified || notMod.Body.Len() != 0 {
		t.Errorf("If-None-Match: got %d with %d bytes; want 304 and empty", notMod.Code, notMod.Body.Len())
	}
	head := get(t, h, "HEAD", "/", nil)
	if head.Code != 200 || head.Body.Len() != 0 || head.Header().Get("Content-Length") == "" {
		t.Errorf("HEAD: got %d, %d body bytes, length %q; want 200, 0, a length", head.Code, head.Body.Len(), head.Header().Get("Content-Length"))
	}
	post := get(t, h, "POST", "/", nil)
	if post.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: got %d; want 405", post.Code)
	}
}

func TestPlaceholderWithoutBuild(t *testing.T) {
	h := newSite(fstest.MapFS{".gitignore": {Data: []byte("*\n")}})
	if h.built {
		t.Fatal("built: got true; want false for an empty dist")
	}
	for _, target := range []string{"/", "/runs/x", "/history"} {
		rec := get(t, h, "GET", target, nil)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), "make web") {
			t.Errorf("%s: got %d %q; want 200 and the build instructions", target, rec.Code, rec.Body.String())
		}
		if got := rec.Header().Get("Cache-Control"); got != "no-cache" {
			t.Errorf("%s Cache-Control: got %q; want no-cache", target, got)
		}
	}
	if rec := get(t, h, "GET", "/assets/index-abc.js", nil); rec.Code != 404 {
		t.Errorf("asset without build: got %d; want 404", rec.Code)
	}
}

// TestEmbedded checks the real embedded directory agrees with Built, so a
// binary built with or without `make web` serves something sensible.
func TestEmbedded(t *testing.T) {
	rec := get(t, Handler(), "GET", "/", nil)
	if rec.Code != 200 {
		t.Fatalf("GET /: got %d; want 200", rec.Code)
	}
	body := rec.Body.String()
	if Built() {
		if !strings.Contains(body, `id="app"`) {
			t.Errorf("built app index: got %q; want the app's mount point", body)
		}
	} else if !strings.Contains(body, "make web") {
		t.Errorf("placeholder: got %q; want the build instructions", body)
	}
}
