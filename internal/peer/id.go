package peer

import (
	"strings"

	"lab/internal/conv"
	"lab/internal/store"
)

// Join is the id a hub serves peer's id under.
func Join(peer, id string) string { return peer + conv.MachineSep + id }

// Split tells a relayed id ("<peer>~<id>") into the peer's name and its
// own id; ok is false for a local id (or an empty part).
func Split(id string) (peer, rest string, ok bool) {
	peer, rest, ok = strings.Cut(id, conv.MachineSep)
	if !ok || rest == "" || store.CheckPeerName(peer) != nil {
		return "", "", false
	}
	return peer, rest, true
}

// strip removes peer's prefix from id when it carries it (a session id a
// client took from a relayed run); other ids are returned unchanged.
func strip(peer, id string) string {
	return strings.TrimPrefix(id, peer+conv.MachineSep)
}

// relayed reports whether id is already a relayed one: a peer that is a
// hub itself serves its own peers' runs so, and a hub shows only each
// peer's own runs (no chains, no loops).
func relayed(id string) bool { return strings.Contains(id, conv.MachineSep) }
