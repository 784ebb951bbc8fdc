package diag

import (
	"go/token"
	"maps"
	"testing"
)

func TestParsePosition(t *testing.T) {
	for in, want := range map[string]token.Position{
		"/a/b.go:3:7":   {Filename: "/a/b.go", Line: 3, Column: 7},
		"/a/b.go:3":     {Filename: "/a/b.go", Line: 3},
		"/a/b.go":       {Filename: "/a/b.go"},
		"C:/x/b.go:1:2": {Filename: "C:/x/b.go", Line: 1, Column: 2},
		"":              {},
	} {
		if got := ParsePosition(in); got != want {
			t.Errorf("ParsePosition(%q) = %+v, want %+v", in, got, want)
		}
	}
}

func TestFormatIsRelativeToDir(t *testing.T) {
	for _, tc := range []struct {
		d    Diagnostic
		want string
	}{
		{Diagnostic{Pos: token.Position{Filename: "/w/api/v1/t.go", Line: 3, Column: 4}, Msg: "bad"}, "api/v1/t.go:3:4: bad"},
		{Diagnostic{Pos: token.Position{Filename: "/elsewhere/t.go", Line: 3, Column: 4}, Msg: "bad"}, "/elsewhere/t.go:3:4: bad"},
		{Diagnostic{Pos: token.Position{Filename: "/w/api/v1"}, Msg: "bad"}, "api/v1: bad"},
		{Diagnostic{Pos: token.Position{Filename: "/w/t.go", Line: 1, Column: 1}, Severity: Warning, Msg: "hm"}, "t.go:1:1: warning: hm"},
		{Diagnostic{Msg: "no position"}, "no position"},
	} {
		if got := tc.d.Format("/w"); got != tc.want {
			t.Errorf("Format = %q, want %q", got, tc.want)
		}
	}
}

func TestItemsAreSortedAndUnique(t *testing.T) {
	l := New(nil)
	at := func(file string, line int, msg string) {
		l.Add(Diagnostic{Pos: token.Position{Filename: file, Line: line, Column: 1}, Msg: msg})
	}
	at("b.go", 1, "x")
	at("a.go", 10, "y")
	at("a.go", 2, "z")
	at("a.go", 10, "y")
	l.Add(Diagnostic{Pos: token.Position{Filename: "a.go", Line: 2, Column: 1}, Severity: Warning, Msg: "w"})
	var got []string
	for _, d := range l.Items() {
		got = append(got, d.Format(""))
	}
	want := []string{"a.go:2:1: z", "a.go:2:1: warning: w", "a.go:10:1: y", "b.go:1:1: x"}
	if len(got) != len(want) {
		t.Fatalf("Items = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Items[%d] = %q, want %q", i, got[i], want[i])
		}
	}
	if !l.HasErrors() {
		t.Error("HasErrors = false")
	}
	w := New(nil)
	w.Add(Diagnostic{Severity: Warning, Msg: "only a warning"})
	if w.HasErrors() {
		t.Error("a warning counts as an error")
	}
}

func TestNotesFollowTheHeadline(t *testing.T) {
	l := New(nil)
	l.Add(Diagnostic{Pos: token.Position{Filename: "/w/api/v1/t.go", Line: 3, Column: 4}, Severity: Warning, Msg: "field Host has no counterpart in v1"}).
		Note("the conversion to v1 leaves it out").
		Help("mark it, if it is meant to live in v1beta1 only:\n// +crdforge:nocounterpart")
	got := l.Items()[0].Format("/w")
	want := `api/v1/t.go:3:4: warning: field Host has no counterpart in v1
  = note: the conversion to v1 leaves it out
  = help: mark it, if it is meant to live in v1beta1 only:
          // +crdforge:nocounterpart`
	if got != want {
		t.Errorf("Format =\n%s\nwant\n%s", got, want)
	}
}

func TestJSONHasThePositionInFields(t *testing.T) {
	l := New(nil)
	l.Add(Diagnostic{Pos: token.Position{Filename: "/w/api/v1/t.go", Line: 3, Column: 4}, Msg: "bad", Field: "spec.x"}).Help("fix it")
	l.Add(Diagnostic{Severity: Warning, Msg: "nowhere", Class: ClassNoCounterpart})
	got, err := JSON("/w", l.Items())
	if err != nil {
		t.Fatal(err)
	}
	want := `[
  {
    "severity": "warning",
    "message": "nowhere",
    "class": "nocounterpart"
  },
  {
    "file": "api/v1/t.go",
    "line": 3,
    "column": 4,
    "severity": "error",
    "field": "spec.x",
    "message": "bad",
    "notes": [
      {
        "kind": "help",
        "text": "fix it"
      }
    ]
  }
]
`
	if string(got) != want {
		t.Errorf("JSON =\n%s\nwant\n%s", got, want)
	}
}

func TestPromoteLeavesAnAppendedListAlone(t *testing.T) {
	a := New(nil)
	a.WarnClassf(ClassNoCounterpart, token.NoPos, "w")
	b := New(nil)
	b.Append(a)
	b.Promote(ClassNoCounterpart)
	if a.HasErrors() || !b.HasErrors() {
		t.Errorf("after b.Promote: a has errors %v (want false), b %v (want true)", a.HasErrors(), b.HasErrors())
	}
}

// TestDemote: only errors of the class become warnings; another class's
// errors and an unclassed error stay errors.
func TestDemote(t *testing.T) {
	l := New(nil)
	l.ErrorClassf(ClassDroppedZero, token.NoPos, "dropped")
	l.ErrorClassf(ClassNoCounterpart, token.NoPos, "other class")
	l.Errorf(token.NoPos, "no class")
	l.Demote(ClassDroppedZero)
	got := map[string]Severity{}
	for _, d := range l.Items() {
		got[d.Msg] = d.Severity
	}
	want := map[string]Severity{"dropped": Warning, "other class": Error, "no class": Error}
	if !maps.Equal(got, want) {
		t.Errorf("after Demote: %v, want %v", got, want)
	}
}
