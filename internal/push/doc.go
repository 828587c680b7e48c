// Package push tells the operator's devices, over Web Push, that a run
// needs them: when a run becomes blocked on a dialog and, where a device
// asks for it, when a run's turn ends. It keeps the server's VAPID keys,
// encrypts and sends with github.com/SherClockHolmes/webpush-go (RFC 8291
// and RFC 8292 are not written here), forgets subscriptions their push
// service calls gone, and holds back a push from a device whose page shows
// that run right now.
//
// The Notifier listens beside the SSE broker to the chat layer's events,
// so a push leaves as soon as the live view sees the state change.
package push
