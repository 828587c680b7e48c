package conv

import "time"

// MachineSep joins a peer's name and one of its ids into the id a hub
// serves the peer's run or session under: "<peer>~<id>". Local ids never
// hold it (run ids are hex, session ids the CLIs' UUIDs), nor do peer
// names, and it needs no escaping in a URL path.
const MachineSep = "~"

// Machine is one lab whose runs a hub shows: itself, or a peer it relays
// for, with whether the peer can be reached now.
type Machine struct {
	Name  string `json:"name"`
	Local bool   `json:"local,omitempty"` // this lab itself
	// URL is a peer's address; AllowHTTP says the operator allowed plain
	// http to a host that is not loopback.
	URL       string `json:"url,omitempty"`
	AllowHTTP bool   `json:"allow_http,omitempty"`
	// Status is the peer's reachability: one of the Machine* statuses.
	Status string `json:"status"`
	// Since is when the peer stopped being reachable (unreachable or
	// revoked).
	Since *time.Time `json:"since,omitempty"`
	// Error is the last failure talking to the peer, for the operator.
	Error   string     `json:"error,omitempty"`
	AddedAt *time.Time `json:"added_at,omitempty"`
}

// Machine statuses.
const (
	MachineOK          = "ok"          // reachable, its token accepted
	MachineConnecting  = "connecting"  // not reached yet since lab started
	MachineUnreachable = "unreachable" // cannot be reached: down, or the network
	MachineRevoked     = "revoked"     // it refuses lab's token (revoked or wrong)
)
