// Package peer lets one lab (the hub) show and steer the runs of other
// labs (its peers) as if they were its own. Each peer stays a complete lab
// that works alone; the hub only relays:
//
//   - ids: a peer's run or session is served at the hub as "<peer>~<id>"
//     (conv.MachineSep), so ids stay unambiguous across machines while
//     local ids are unchanged;
//   - lists (runs, history, external sessions) are gathered from every
//     peer in parallel and merged, a peer that cannot be reached shown by
//     its last known runs;
//   - every request under a peer's run or session is forwarded as it is
//     (Relay: a reverse proxy with the peer's token, never the operator's
//     cookie), JSON answers rewritten only where they carry ids;
//   - live updates: a follower per peer reads the peer's event stream,
//     reconnecting with backoff and noticing a silent one by its
//     heartbeats, and republishes each event with the id translated,
//     to the hub's browsers and its push notifier alike.
//
// The peers (name, URL, token) are kept in lab's database (internal/store);
// the hub re-reads them every few seconds, so `lab peer add` on a running
// hub takes effect without a restart.
package peer
