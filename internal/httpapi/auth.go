package httpapi

import (
	"context"
	"crypto/subtle"
	"net/http"
	"net/url"
	"strings"

	"lab/internal/conv"
	"lab/internal/store"
)

// SessionCookie is the name of the login cookie.
const SessionCookie = "lab_session"

// CSRFHeader carries a login session's CSRF token on state-changing
// requests.
const CSRFHeader = "X-CSRF-Token"

// principal is who made a request: a browser login session or a script's
// bearer token.
type principal struct {
	session      *store.LoginSession
	sessionToken string
	token        *store.APIToken
}

type principalKey struct{}

func principalFrom(ctx context.Context) *principal {
	p, _ := ctx.Value(principalKey{}).(*principal)
	return p
}

// authed lets a request through only with valid credentials: a bearer
// token, or a session cookie plus, for anything but GET/HEAD/OPTIONS, CSRF
// proof. A bearer token needs no CSRF proof: browsers never attach one on
// their own.
func (s *Server) authed(next apiFunc) apiFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		p, err := s.identify(w, r)
		if err != nil {
			return err
		}
		if p == nil {
			return conv.Errorf(conv.EUnauthorized, "not logged in: log in or send Authorization: Bearer <token>")
		}
		if p.token != nil && !scopeAllows(p.token.Scope, r.Pattern) {
			return conv.Errorf(conv.EForbidden, "this token (scope %q) may not use %s", p.token.Scope, r.URL.Path)
		}
		if p.session != nil && !safeMethod(r.Method) {
			if err := s.checkCSRF(r, p.session); err != nil {
				return err
			}
		}
		return next(w, r.WithContext(context.WithValue(r.Context(), principalKey{}, p)))
	}
}

// identify finds the request's credentials. No credentials is (nil, nil);
// bad ones are conv.EUnauthorized, and a dead session cookie is cleared.
// An Authorization header, when present, is the only thing looked at.
func (s *Server) identify(w http.ResponseWriter, r *http.Request) (*principal, error) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, secret, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(secret) == "" {
			return nil, conv.Errorf(conv.EUnauthorized, "the Authorization header must be \"Bearer <token>\"")
		}
		t, err := s.store.CheckAPIToken(r.Context(), strings.TrimSpace(secret))
		if err != nil {
			return nil, err
		}
		return &principal{token: &t}, nil
	}
	c, err := r.Cookie(SessionCookie)
	if err != nil || c.Value == "" {
		return nil, nil
	}
	sess, err := s.store.LoginSession(r.Context(), c.Value)
	if err != nil {
		if conv.KindOf(err) == conv.EUnauthorized {
			s.clearCookie(w, r)
		}
		return nil, err
	}
	if sess.Renewed {
		s.setCookie(w, r, c.Value)
	}
	return &principal{session: &sess, sessionToken: c.Value}, nil
}

func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// checkCSRF wants both defences on a cookie-authenticated write: the
// request must not come from another origin (Sec-Fetch-Site / Origin
// against Host or the declared base URL), and it must carry the
// session's CSRF token, which another site cannot read.
func (s *Server) checkCSRF(r *http.Request, sess *store.LoginSession) error {
	if err := s.checkOrigin(r); err != nil {
		return err
	}
	got := r.Header.Get(CSRFHeader)
	if got == "" {
		return conv.Errorf(conv.EForbidden, "missing %s header", CSRFHeader)
	}
	if subtle.ConstantTimeCompare([]byte(got), []byte(sess.CSRFToken)) != 1 {
		return conv.Errorf(conv.EForbidden, "wrong %s header", CSRFHeader)
	}
	return nil
}

// checkOrigin refuses a state-changing request a browser sent from another
// origin: by Sec-Fetch-Site or Origin when the browser sent either, else
// by a Referer that names another site (some browsers and privacy
// add-ons drop Origin but keep Referer). A request with none of them (a
// script) passes.
func (s *Server) checkOrigin(r *http.Request) error {
	if err := s.origins.Check(r); err != nil {
		return conv.Wrap(conv.EForbidden, err, "cross-origin request refused")
	}
	if r.Header.Get("Sec-Fetch-Site") != "" || r.Header.Get("Origin") != "" {
		return nil
	}
	if ref := r.Header.Get("Referer"); ref != "" && !s.refersToLab(r, ref) {
		return conv.Errorf(conv.EForbidden, "cross-origin request refused: the Referer is another site")
	}
	return nil
}

// refersToLab reports whether ref is a page of lab itself: served
// under the request's Host, or under the declared base URL's origin.
func (s *Server) refersToLab(r *http.Request, ref string) bool {
	u, err := url.Parse(ref)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	return strings.EqualFold(u.Host, r.Host) || (s.baseOrigin != "" && strings.EqualFold(u.Scheme+"://"+u.Host, s.baseOrigin))
}

// secureCookie: Secure when served over TLS or behind a declared https
// base URL. Over plain http on loopback a Secure cookie would never come
// back, so it cannot be unconditional.
func (s *Server) secureCookie(r *http.Request) bool { return s.secure || r.TLS != nil }

func (s *Server) setCookie(w http.ResponseWriter, r *http.Request, token string) {
	http.SetCookie(w, &http.Cookie{
		Name:     SessionCookie,
		Value:    token,
		Path:     "/",
		MaxAge:   int(store.SessionTTL.Seconds()),
		HttpOnly: true,
		Secure:   s.secureCookie(r),
		SameSite: http.SameSiteStrictMode,
	})
}

func (s *Server) clearCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{
		Name:     SessionCookie,
		Value:    "",
		Path:     "/",
		MaxAge:   -1,
		HttpOnly: true,
		Secure:   s.secureCookie(r),
		SameSite: http.SameSiteStrictMode,
	})
}
