package httpapi

import (
	"context"
	"net/http"

	"lab/internal/conv"
	"lab/internal/push"
)

// Push is Web Push as the API needs it (push.Service). Errors are
// *conv.Error: EInvalid for a malformed subscription or name, ENotFound
// for an unknown device, EConflict when a test push found the
// subscription gone, EUnavailable when the push service refused.
type Push interface {
	PublicKey() string
	Subscribe(ctx context.Context, req push.SubscribeRequest) (push.Device, error)
	Devices(ctx context.Context) ([]push.Device, error)
	Update(ctx context.Context, id string, req push.UpdateRequest) (push.Device, error)
	Unsubscribe(ctx context.Context, id string) error
	Test(ctx context.Context, id string) error
	ReportPresence(ctx context.Context, req push.PresenceRequest) error
	// Act redeems a notification action's token (push.Notifier.Act).
	Act(ctx context.Context, token string) (push.ActResult, error)
}

// ActRequest is the body of POST /api/v1/push/act.
type ActRequest struct {
	Token string `json:"token"`
}

// PushKey is the body of GET /api/v1/push/key.
type PushKey struct {
	PublicKey string `json:"public_key"`
}

// DeviceList is the body of GET /api/v1/push/devices.
type DeviceList struct {
	Devices []push.Device `json:"devices"`
}

// pushOn returns the push service, or EUnavailable when the server runs
// without one.
func (s *Server) pushOn() (Push, error) {
	if s.cfg.Push == nil {
		return nil, conv.Errorf(conv.EUnavailable, "web push is not enabled on this server")
	}
	return s.cfg.Push, nil
}

func (s *Server) pushKey(w http.ResponseWriter, r *http.Request) error {
	p, err := s.pushOn()
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, PushKey{p.PublicKey()})
	return nil
}

func (s *Server) pushDevices(w http.ResponseWriter, r *http.Request) error {
	p, err := s.pushOn()
	if err != nil {
		return err
	}
	ds, err := p.Devices(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, DeviceList{ds})
	return nil
}

func (s *Server) pushSubscribe(w http.ResponseWriter, r *http.Request) error {
	p, err := s.pushOn()
	if err != nil {
		return err
	}
	var req push.SubscribeRequest
	if err := s.decode(w, r, &req); err != nil {
		return err
	}
	d, err := p.Subscribe(r.Context(), req)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, d)
	return nil
}

func (s *Server) pushUpdate(w http.ResponseWriter, r *http.Request) error {
	p, err := s.pushOn()
	if err != nil {
		return err
	}
	var req push.UpdateRequest
	if err := s.decode(w, r, &req); err != nil {
		return err
	}
	d, err := p.Update(r.Context(), r.PathValue("id"), req)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, d)
	return nil
}

func (s *Server) pushUnsubscribe(w http.ResponseWriter, r *http.Request) error {
	p, err := s.pushOn()
	if err != nil {
		return err
	}
	if err := p.Unsubscribe(r.Context(), r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) pushTest(w http.ResponseWriter, r *http.Request) error {
	p, err := s.pushOn()
	if err != nil {
		return err
	}
	if err := p.Test(r.Context(), r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) pushPresence(w http.ResponseWriter, r *http.Request) error {
	p, err := s.pushOn()
	if err != nil {
		return err
	}
	var req push.PresenceRequest
	if err := s.decode(w, r, &req); err != nil {
		return err
	}
	if err := p.ReportPresence(r.Context(), req); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// pushAct answers a dialog from a notification's action. It is outside
// the login: the service worker that calls it has no CSRF token and maybe
// no live session, so the action's single-use token is the credential
// (see internal/push/actions.go).
func (s *Server) pushAct(w http.ResponseWriter, r *http.Request) error {
	p, err := s.pushOn()
	if err != nil {
		return err
	}
	var req ActRequest
	if err := s.decode(w, r, &req); err != nil {
		return err
	}
	res, err := p.Act(r.Context(), req.Token)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}
