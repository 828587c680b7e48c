package peer

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"lab/internal/conv"
	"lab/internal/store"
)

// probeTimeout bounds the check of a new peer's token.
const probeTimeout = 5 * time.Second

// Probe tries p's token on p with a request a relay token may make.
// Returns nil when the peer accepted it, conv.EInvalid when it refused it
// (the token is wrong, revoked, or not one of that lab's), and
// conv.EUnavailable when the peer could not be reached (the token is
// untried). client nil uses a fresh transport.
func Probe(ctx context.Context, client *http.Client, p store.Peer) error {
	u, err := CheckURL(p.URL, p.AllowHTTP)
	if err != nil {
		return err
	}
	if client == nil {
		client = &http.Client{Transport: newTransport()}
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String()+"/api/v1/providers", nil)
	if err != nil {
		return conv.Wrap(conv.EInvalid, err, "peer URL")
	}
	req.Header.Set("Authorization", "Bearer "+p.Token)
	res, err := client.Do(req)
	if err != nil {
		return conv.Wrap(conv.EUnavailable, err, unreachableText(p.Name, err))
	}
	defer res.Body.Close()
	switch {
	case res.StatusCode == http.StatusUnauthorized:
		return conv.Errorf(conv.EInvalid, "machine %s refuses this token: create one there with `lab token create --relay NAME` and give it here", p.Name)
	case res.StatusCode >= 300:
		return conv.Errorf(conv.EUnavailable, "machine %s answered %s at %s: is it a lab?", p.Name, res.Status, req.URL.Path)
	}
	return nil
}

// Describe says in a line what Probe found, for `lab peer add`.
func Describe(name string, err error) string {
	if err == nil {
		return fmt.Sprintf("machine %s accepted the token", name)
	}
	return conv.MessageOf(err)
}
