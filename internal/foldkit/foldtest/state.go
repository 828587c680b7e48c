package foldtest

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// StateDiff compares the whole internal state of two folds (two values of
// the same struct type, or pointers to them), unexported fields and
// embedded foldkit parts included, and explains the first difference, or
// returns "". The top-level fields named in scratch (per-line scratch
// space) are passed over; nil and empty slices and maps count alike (a
// reused buffer and a fresh one hold the same state); two funcs are alike
// when both are nil or neither is. Being generic over the fields, it
// covers a field a fold gains without the tests being told.
func StateDiff(got, want any, scratch ...string) string {
	g, w := reflect.ValueOf(got), reflect.ValueOf(want)
	for g.Kind() == reflect.Pointer && w.Kind() == reflect.Pointer && !g.IsNil() && !w.IsNil() {
		g, w = g.Elem(), w.Elem()
	}
	if g.Type() != w.Type() {
		return fmt.Sprintf("types differ: %s and %s", g.Type(), w.Type())
	}
	if g.Kind() != reflect.Struct {
		if d := diffValue(g, w); d != nil {
			return d.String()
		}
		return ""
	}
	for i := range g.NumField() {
		name := g.Type().Field(i).Name
		if slices.Contains(scratch, name) {
			continue
		}
		if d := diffValue(g.Field(i), w.Field(i)); d != nil {
			return d.at("." + name).String()
		}
	}
	return ""
}

// Differ is a Harness's Diff for folds whose per-line scratch fields are
// scratch: StateDiff, explained with both folds' observations.
func Differ[F Fold](scratch ...string) func(got, want F) string {
	return func(got, want F) string {
		if d := StateDiff(got, want, scratch...); d != "" {
			return fmt.Sprintf("internal state differs: %s\n got  %+v\n want %+v", d, Observe(got), Observe(want))
		}
		return ""
	}
}

// diffValue compares two values of one type, reading unexported fields
// through reflect's read-only accessors. It returns how they differ with
// the path to the difference, which is built only on the way back up from
// one (the values compared are many; differences few).
func diffValue(g, w reflect.Value) *difference {
	switch g.Kind() {
	case reflect.Struct:
		for i := range g.NumField() {
			if d := diffValue(g.Field(i), w.Field(i)); d != nil {
				return d.at("." + g.Type().Field(i).Name)
			}
		}
	case reflect.Pointer:
		if g.IsNil() || w.IsNil() {
			if g.IsNil() != w.IsNil() {
				return differ("got nil %v, want nil %v", g.IsNil(), w.IsNil())
			}
			return nil
		}
		if g.Pointer() == w.Pointer() {
			return nil
		}
		return diffValue(g.Elem(), w.Elem())
	case reflect.Interface:
		if g.IsNil() || w.IsNil() {
			if g.IsNil() != w.IsNil() {
				return differ("got nil %v, want nil %v", g.IsNil(), w.IsNil())
			}
			return nil
		}
		if g.Elem().Type() != w.Elem().Type() {
			return differ("got a %s, want a %s", g.Elem().Type(), w.Elem().Type())
		}
		return diffValue(g.Elem(), w.Elem())
	case reflect.Slice, reflect.Array:
		if g.Len() != w.Len() {
			return differ("got %d elements, want %d", g.Len(), w.Len())
		}
		if g.Kind() == reflect.Slice && g.Type().Elem().Kind() == reflect.Uint8 {
			if !bytes.Equal(g.Bytes(), w.Bytes()) {
				return differ("got %q, want %q", clip(g.Bytes()), clip(w.Bytes()))
			}
			return nil
		}
		for i := range g.Len() {
			if d := diffValue(g.Index(i), w.Index(i)); d != nil {
				return d.at(fmt.Sprintf("[%d]", i))
			}
		}
	case reflect.Map:
		if g.Len() != w.Len() {
			return differ("got %d entries, want %d", g.Len(), w.Len())
		}
		iter := g.MapRange()
		for iter.Next() {
			wv := w.MapIndex(iter.Key())
			if !wv.IsValid() {
				return differ("got key %v, want none", iter.Key())
			}
			if d := diffValue(iter.Value(), wv); d != nil {
				return d.at(fmt.Sprintf("[%v]", iter.Key()))
			}
		}
	case reflect.Func:
		if g.IsNil() != w.IsNil() {
			return differ("got nil func %v, want nil func %v", g.IsNil(), w.IsNil())
		}
	case reflect.Chan, reflect.UnsafePointer:
		if g.Pointer() != w.Pointer() {
			return differ("different %s", g.Kind())
		}
	case reflect.Bool:
		if g.Bool() != w.Bool() {
			return differ("got %v, want %v", g.Bool(), w.Bool())
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if g.Int() != w.Int() {
			return differ("got %d, want %d", g.Int(), w.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if g.Uint() != w.Uint() {
			return differ("got %d, want %d", g.Uint(), w.Uint())
		}
	case reflect.Float32, reflect.Float64:
		if g.Float() != w.Float() {
			return differ("got %v, want %v", g.Float(), w.Float())
		}
	case reflect.Complex64, reflect.Complex128:
		if g.Complex() != w.Complex() {
			return differ("got %v, want %v", g.Complex(), w.Complex())
		}
	case reflect.String:
		if g.String() != w.String() {
			return differ("got %q, want %q", clip([]byte(g.String())), clip([]byte(w.String())))
		}
	default:
		return differ("cannot compare a %s", g.Kind())
	}
	return nil
}

// difference is how two values differ, and where: path is built from the
// innermost step outwards.
type difference struct {
	path []string // reversed
	what string
}

func differ(format string, args ...any) *difference {
	return &difference{what: fmt.Sprintf(format, args...)}
}

// at adds the step that led to the difference.
func (d *difference) at(step string) *difference {
	d.path = append(d.path, step)
	return d
}

func (d *difference) String() string {
	var b strings.Builder
	for i := len(d.path) - 1; i >= 0; i-- {
		b.WriteString(d.path[i])
	}
	return strings.TrimPrefix(b.String(), ".") + ": " + d.what
}

// clip shortens a long value for a message.
func clip(b []byte) []byte {
	if len(b) > 200 {
		return append(b[:200:200], "…"...)
	}
	return b
}
