package e2e

import "testing"

// The go commands tests run get -trimpath, -gcflags, -ldflags and
// -toolexec exactly when the tests' own GOFLAGS have them (make's do),
// after the flags of their own.
func TestGoFlagsPassOnTrimpath(t *testing.T) {
	for _, c := range []struct {
		env   string
		flags []string
		want  string
	}{
		{"-count=1 -trimpath", []string{"-mod=mod"}, "GOFLAGS=-mod=mod -trimpath"},
		{"-trimpath", nil, "GOFLAGS=-trimpath"},
		{"-count=1", []string{"-mod=mod"}, "GOFLAGS=-mod=mod"},
		{"", nil, "GOFLAGS="},
		{"-toolexec=/tmp/log.sh -count=1 -trimpath", []string{"-mod=mod"}, "GOFLAGS=-mod=mod -toolexec=/tmp/log.sh -trimpath"},
		{"-trimpath -gcflags=all=-dwarf=false -ldflags=-w -count=1", nil, "GOFLAGS=-trimpath -gcflags=all=-dwarf=false -ldflags=-w"},
	} {
		t.Setenv("GOFLAGS", c.env)
		if got := GoFlags(c.flags...); got != c.want {
			t.Errorf("with GOFLAGS=%q, GoFlags(%q) = %q, want %q", c.env, c.flags, got, c.want)
		}
	}
}
