package typedjson

import (
	"bytes"
	"testing"

	"github.com/crdforge/crdforge/webhook/internal/codec"
)

// AppendStringMap writes what the reflection codec writes for the same map,
// byte for byte: keys sorted, and the characters encoding/json escapes
// (quotes, backslashes, control characters, U+2028 and U+2029, invalid
// UTF-8) escaped as it escapes them, HTML characters left alone.
func TestAppendStringMapWritesWhatTheReflectionCodecWrites(t *testing.T) {
	for _, m := range []map[string]string{
		{"a": "1"},
		{"b": "2", "a": "1", "conversion.crdforge.io/v1": `sparse:{"spec":{"warranty":{"years":2}}}`},
		{"html": "<a href=\"x\">&amp;</a>", "ctl": "\x00\x1f\b\f\n\r\t", "sep": "\u2028\u2029"},
		{"bad utf-8 \xff": "\xc3\x28 and \xe2\x82", "é": "ü", "": ""},
		{"Z": "upper first", "a": "lower", "_": "under", "0": "digit"},
	} {
		checkAppendStringMap(t, m)
	}
}

func FuzzAppendStringMap(f *testing.F) {
	f.Add("app", "widgets", "owner", "<team-a> & \u2028")
	f.Add("\xff", "\x00", "b", "\"\\")
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2 string) {
		checkAppendStringMap(t, map[string]string{k1: v1, k2: v2})
	})
}

func checkAppendStringMap(t *testing.T, m map[string]string) {
	t.Helper()
	var want bytes.Buffer
	if err := codec.MarshalWrite(&want, m); err != nil {
		t.Fatal(err)
	}
	got := AppendStringMap([]byte("prefix"), m)
	if string(got) != "prefix"+want.String() {
		t.Errorf("AppendStringMap(%q)\ngot  %s\nwant prefix%s", m, got, want.Bytes())
	}
}
