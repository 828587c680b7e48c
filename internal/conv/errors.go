package conv

import (
	"errors"
	"fmt"
)

// ErrorKind classifies an error for the client. The HTTP layer maps each
// kind to one status in one table.
type ErrorKind string

const (
	EInvalid      ErrorKind = "invalid"      // bad input: 400
	EUnauthorized ErrorKind = "unauthorized" // no or bad credentials: 401
	EForbidden    ErrorKind = "forbidden"    // authenticated but not allowed (CSRF): 403
	ENotFound     ErrorKind = "not_found"    // 404
	EConflict     ErrorKind = "conflict"     // the state changed under the caller: 409
	ETooLarge     ErrorKind = "too_large"    // 413
	EUnavailable  ErrorKind = "unavailable"  // a dependency is missing or down: 503
	EInternal     ErrorKind = "internal"     // a bug or an I/O failure: 500
)

// Error is an error with a kind and a message safe to show the operator.
type Error struct {
	Kind    ErrorKind
	Message string
	Err     error // the detail, logged but not shown
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error of the given kind with a formatted message.
func Errorf(kind ErrorKind, format string, args ...any) error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// Wrap returns an *Error of kind with message that carries err as detail.
func Wrap(kind ErrorKind, err error, message string) error {
	return &Error{Kind: kind, Message: message, Err: err}
}

// KindOf returns the kind of the first *Error in err's chain, or EInternal.
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return EInternal
}

// MessageOf returns the operator-facing message of err: the *Error's message
// or, for anything else, a generic text.
func MessageOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}
