package typedjson

import (
	"bytes"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// atMember is a decoder over the tape of {"t":value}, at the value.
func atMember(t *testing.T, value string) (*Decoder, bool) {
	data := []byte(`{"t":` + value + `}`)
	tape, ok := ObjectTape(data)
	if !ok {
		return nil, false
	}
	d := new(Decoder)
	d.dec.ResetTape(data, tape)
	if d.Begin('{') != nil || !d.More() {
		t.Fatalf("%s: no member", data)
	}
	if _, err := d.Name(); err != nil {
		t.Fatal(err)
	}
	return d, true
}

// checkTranscodeTime transcodes value with TranscodeTime and with Time and
// AppendTime: the same bytes, or an error from both.
func checkTranscodeTime(t *testing.T, value string) {
	d, ok := atMember(t, value)
	if !ok {
		return
	}
	got, err := TranscodeTime(d, []byte("x"))
	d, _ = atMember(t, value)
	var tm metav1.Time
	wantErr := Time(d, &tm)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("%s: TranscodeTime: %v, Time: %v", value, err, wantErr)
	}
	if err != nil {
		return
	}
	if want := AppendTime([]byte("x"), &tm); !bytes.Equal(got, want) {
		t.Fatalf("%s: TranscodeTime wrote %s, Time and AppendTime %s", value, got, want)
	}
	if !d.More() && d.End() != nil {
		t.Fatalf("%s: TranscodeTime did not read the whole value", value)
	}
}

var timeSeeds = []string{
	`"2030-01-02T03:04:05Z"`, `"2024-02-29T23:59:59Z"`, `"2023-02-29T00:00:00Z"`, `"1900-02-29T00:00:00Z"`, `"2000-02-29T00:00:00Z"`,
	`"0001-01-01T00:00:00Z"`, `"0000-01-01T00:00:00Z"`, `"9999-12-31T23:59:59Z"`, `"2030-04-31T00:00:00Z"`,
	`"2030-01-02T24:00:00Z"`, `"2030-01-02T03:60:00Z"`, `"2030-01-02T03:04:60Z"`, `"2030-13-02T03:04:05Z"`, `"2030-00-02T03:04:05Z"`,
	`"2030-01-02T04:04:05+01:00"`, `"2030-01-02T03:04:05.5Z"`, `"2030-01-02t03:04:05z"`, `"2030-01-02T03:04:05\u005a"`,
	`null`, `""`, `1`, `"x"`, `"2030-1-02T03:04:05Z"`,
}

func TestTranscodeTimeWritesWhatTimeAndAppendTimeWrite(t *testing.T) {
	for _, v := range timeSeeds {
		checkTranscodeTime(t, v)
	}
}

func FuzzTranscodeTime(f *testing.F) {
	for _, v := range timeSeeds {
		f.Add(v)
	}
	f.Fuzz(checkTranscodeTime)
}
