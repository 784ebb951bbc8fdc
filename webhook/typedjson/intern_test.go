package typedjson

import (
	"testing"
)

// The short strings of a stored object (the values and map keys that
// examples/widgets' benchmark decodes) are each kept in a slot of their own,
// so that decoding such objects one after another allocates none of them;
// and a string interned is always the bytes given.
func TestInternKeepsAStoredObjectsStrings(t *testing.T) {
	strs := []string{
		"widgets.example.com/v1", "Widget", "default", "app", "widgets", "tier", "gold", "owner", "team-a",
		"widgets.example.com/cleanup", "apps/v1", "Deployment", "widget-factory", "Large", "widget.local",
		"gear", "spring", "bolt", "250m", "1Ki", "top", "side", "red", "blue", "line", "a",
		"Ready", "True", "Built", "ok",
	}
	var d Decoder
	for _, s := range strs {
		if got := d.intern([]byte(s)); got != s {
			t.Fatalf("intern(%q) = %q", s, got)
		}
	}
	bufs := make([][]byte, len(strs))
	for i, s := range strs {
		bufs[i] = []byte(s)
	}
	if n := testing.AllocsPerRun(10, func() {
		for _, b := range bufs {
			_ = d.intern(b)
		}
	}); n != 0 {
		t.Errorf("interning the strings again allocated %.0f times: some share a slot", n)
	}
}

func FuzzIntern(f *testing.F) {
	f.Add([]byte("gear"), []byte("spring"))
	f.Add([]byte("conditions-12345-abc"), []byte("conditions-12346-abc"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		var d Decoder
		for n := 0; n < 3; n++ {
			if got := d.intern(a); got != string(a) {
				t.Fatalf("intern(%q) = %q", a, got)
			}
			if got := d.intern(b); got != string(b) {
				t.Fatalf("intern(%q) = %q", b, got)
			}
		}
	})
}
