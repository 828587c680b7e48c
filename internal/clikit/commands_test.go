package clikit

import (
	"fmt"
	"testing"

	"lab/internal/conv"
)

func TestTableFor(t *testing.T) {
	tables := []CommandTable{
		{Version: "1.0.0", Commands: []conv.Command{Run("a", "one")}},
		{Version: "1.2.0", Commands: Patched([]conv.Command{Run("a", "one")}, map[string]string{"a": "two"})},
	}
	for v, want := range map[string]string{"0.9.0": "one", "1.0.0": "one", "1.1.9": "one", "1.2.0": "two", "3.0.0 (x)": "two", "bad": "one"} {
		if got := TableFor(tables, v, CompareVersions)[0].Description; got != want {
			t.Errorf("TableFor(%s) = %q; want %q", v, got, want)
		}
	}
	if TableFor(nil, "1.0.0", CompareVersions) != nil {
		t.Error("no tables gives commands")
	}
	if tables[0].Commands[0].Description != "one" {
		t.Error("Patched changed the base table")
	}
}

func TestMergeCommands(t *testing.T) {
	builtin := []conv.Command{Run("compact", "b"), Refused("config", "c", WhyScreen)}
	project := []conv.Command{{Name: "deploy", Source: conv.SourceProject}, {Name: "compact", Source: conv.SourceProject}}
	user := []conv.Command{{Name: "deploy", Source: conv.SourceUser}, {Name: "hello", Source: conv.SourceUser}}
	var got []string
	for _, c := range MergeCommands(builtin, project, user) {
		got = append(got, c.Name+"/"+c.Source)
	}
	want := "[deploy/project hello/user compact/builtin config/builtin]"
	if s := fmt.Sprint(got); s != want {
		t.Fatalf("merged %s; want %s (the project's before the operator's, built-ins win)", s, want)
	}
}
