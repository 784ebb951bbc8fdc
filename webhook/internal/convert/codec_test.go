package convert_test

import (
	"errors"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crdforge/crdforge/webhook/internal/convert"
	"github.com/crdforge/crdforge/webhook/internal/testkit"
	"github.com/crdforge/crdforge/webhook/typedjson"
)

// A version's generated codec is used first, and where it declines (any
// error) the reflection codec decodes a new object, or encodes the object,
// again: the answer is the reflection codec's.
func TestTableFallsBackToTheReflectionCodecWhereTheGeneratedOneDeclines(t *testing.T) {
	var decodes, encodes int
	declining := convert.Codec{
		Decode: func(*typedjson.Decoder, runtime.Object) error { decodes++; return errors.New("declined") },
		Encode: func(b []byte, _ runtime.Object) ([]byte, error) {
			encodes++
			return append(b, "garbage"...), errors.New("declined")
		},
	}
	k := box()
	k.Codecs = map[string]convert.Codec{"v1": declining, "v3": declining}
	table, err := convert.NewTable(k)
	if err != nil {
		t.Fatal(err)
	}
	got, err := table.Convert(object(t, testkit.BoxJSON("v1", "a", `"hostPort":"h:1"`)), "test.io/v3")
	want := `{"kind":"Box","apiVersion":"test.io/v3","metadata":{"name":"a","namespace":"ns","uid":"u-a"},"host":"h","number":"1"}`
	if err != nil || string(got) != want {
		t.Errorf("Convert = %s, %v\nwant %s", got, err, want)
	}
	if decodes != 1 || encodes != 1 {
		t.Errorf("the generated codec decoded %d and encoded %d times, want 1 and 1", decodes, encodes)
	}
}

// A generated codec that succeeds is what the table uses.
func TestTableUsesTheGeneratedCodec(t *testing.T) {
	k := box()
	k.Codecs = map[string]convert.Codec{"v3": {Encode: func(b []byte, _ runtime.Object) ([]byte, error) {
		return append(b, `{"kind":"Box","metadata":{},"generated":true}`...), nil
	}}}
	table, err := convert.NewTable(k)
	if err != nil {
		t.Fatal(err)
	}
	got, err := table.Convert(object(t, testkit.BoxJSON("v1", "a", `"hostPort":"h:1"`)), "test.io/v3")
	if err != nil || !strings.Contains(string(got), `"generated":true`) {
		t.Errorf("Convert = %s, %v; want the generated encoding", got, err)
	}
}

func TestNewTableRejectsACodecOfAnUnknownVersion(t *testing.T) {
	k := box()
	k.Codecs = map[string]convert.Codec{"v9": {}}
	if _, err := convert.NewTable(k); err == nil || !strings.Contains(err.Error(), `"v9"`) {
		t.Errorf("NewTable = %v, want an error naming v9", err)
	}
}
