package httpapi

import (
	"net/http"

	"lab/internal/conv"
)

// AuthStatus tells the web app which screen to show: setup, login, or the
// app with the CSRF token it must send on writes.
type AuthStatus struct {
	SetupNeeded bool   `json:"setup_needed"`
	LoggedIn    bool   `json:"logged_in"`
	Via         string `json:"via,omitempty"`        // "session" or "token"
	CSRFToken   string `json:"csrf_token,omitempty"` // for session logins
}

// authStatus: GET /api/v1/auth/status, open to everybody. Bad credentials
// are reported as logged out rather than as an error: this is the call
// that decides to show the login screen.
func (s *Server) authStatus(w http.ResponseWriter, r *http.Request) error {
	has, err := s.store.HasPassword(r.Context())
	if err != nil {
		return err
	}
	st := AuthStatus{SetupNeeded: !has}
	p, err := s.identify(w, r)
	if err != nil && conv.KindOf(err) != conv.EUnauthorized {
		return err
	}
	switch {
	case p == nil:
	case p.session != nil:
		st.LoggedIn, st.Via, st.CSRFToken = true, "session", p.session.CSRFToken
	default:
		st.LoggedIn, st.Via = true, "token"
	}
	writeJSON(w, http.StatusOK, st)
	return nil
}

type loginRequest struct {
	Password string `json:"password"`
}

// login: POST /api/v1/auth/login {password}. Sets the session cookie and
// the known-device cookie, and answers the new status with its CSRF token.
func (s *Server) login(w http.ResponseWriter, r *http.Request) error {
	if err := s.checkOrigin(r); err != nil {
		return err
	}
	a, err := s.admit(r)
	if err != nil {
		return err
	}
	var req loginRequest
	if err := s.decode(w, r, &req); err != nil {
		return err
	}
	if req.Password == "" {
		return conv.Errorf(conv.EInvalid, "password is required")
	}
	if err := s.hash(r, a, func() error { return s.store.CheckPassword(r.Context(), req.Password) }); err != nil {
		if conv.KindOf(err) == conv.EUnauthorized {
			s.log.Warn("failed login", a.logAttrs()...)
		}
		return err
	}
	return s.startSession(w, r, a)
}

type setupRequest struct {
	SetupToken string `json:"setup_token"`
	Password   string `json:"password"`
}

// setup: POST /api/v1/auth/setup {setup_token, password}. Sets the first
// password with the one-time token from the server log and logs in.
func (s *Server) setup(w http.ResponseWriter, r *http.Request) error {
	if err := s.checkOrigin(r); err != nil {
		return err
	}
	a, err := s.admit(r)
	if err != nil {
		return err
	}
	var req setupRequest
	if err := s.decode(w, r, &req); err != nil {
		return err
	}
	if req.SetupToken == "" || req.Password == "" {
		return conv.Errorf(conv.EInvalid, "setup_token and password are required")
	}
	if err := s.hash(r, a, func() error { return s.store.SetupPassword(r.Context(), req.SetupToken, req.Password) }); err != nil {
		return err
	}
	s.log.Info("operator password set through the setup link", a.logAttrs()...)
	return s.startSession(w, r, a)
}

func (s *Server) startSession(w http.ResponseWriter, r *http.Request, a *attempt) error {
	token, sess, err := s.store.CreateLoginSession(r.Context())
	if err != nil {
		return err
	}
	if err := s.rememberDevice(w, r); err != nil {
		return err
	}
	s.setCookie(w, r, token)
	s.log.Info("logged in", a.logAttrs("session", sess.ID)...)
	writeJSON(w, http.StatusOK, AuthStatus{LoggedIn: true, Via: "session", CSRFToken: sess.CSRFToken})
	return nil
}

// logout: POST /api/v1/auth/logout ends the cookie's session for good. The
// browser stays a known device (forget them all with `lab passwd`). With
// a bearer token there is nothing to end; revoke it with `lab token revoke`.
func (s *Server) logout(w http.ResponseWriter, r *http.Request) error {
	p := principalFrom(r.Context())
	if p != nil && p.session != nil {
		if err := s.store.DeleteLoginSession(r.Context(), p.sessionToken); err != nil {
			return err
		}
		s.log.Info("logged out", "session", p.session.ID)
		s.clearCookie(w, r)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
