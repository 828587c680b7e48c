package push

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"syscall"
)

// Readable words a failed push for the operator: what went wrong in plain
// words and what to do, instead of a Go error chain with the capability
// URL in it. The full error still goes to the log. host is the push
// service's host name.
func Readable(err error, host string) string {
	if err == nil {
		return ""
	}
	svc := "the push service"
	if host != "" {
		svc = "the push service (" + host + ")"
	}
	var se *SendError
	var dns *net.DNSError
	var cert *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var netErr net.Error
	switch {
	case errors.Is(err, ErrGone):
		return svc + " no longer knows this device: turn notifications on again on it"
	case errors.As(err, &se):
		return statusReason(svc, se.Status)
	case errors.As(err, &dns):
		return svc + " could not be found: is this machine online, and can it resolve " + dns.Name + "?"
	case errors.As(err, &cert), errors.As(err, &unknownAuth):
		return svc + "'s certificate was not accepted: a proxy may be intercepting TLS"
	case errors.Is(err, syscall.ECONNREFUSED):
		return svc + " refused the connection"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return svc + " did not answer in time: is the network slow or blocked?"
	}
	return svc + " could not be reached"
}

func statusReason(svc string, status int) string {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return fmt.Sprintf("%s refused lab's signature (HTTP %d): the subscription was made with other keys; turn notifications off and on again on that device", svc, status)
	case status == http.StatusRequestEntityTooLarge:
		return fmt.Sprintf("%s refused the push as too large (HTTP %d)", svc, status)
	case status == http.StatusTooManyRequests:
		return fmt.Sprintf("%s is limiting how often lab may push (HTTP %d); later pushes may get through", svc, status)
	case status >= 500:
		return fmt.Sprintf("%s had a problem of its own (HTTP %d); the next push tries again", svc, status)
	}
	return fmt.Sprintf("%s refused the push (HTTP %d)", svc, status)
}

// hostOf is an endpoint's host name, "" when it does not parse.
func hostOf(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return ""
	}
	return u.Hostname()
}
