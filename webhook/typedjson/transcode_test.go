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

// checkTranscodeStringMap transcodes value with TranscodeStringMap and with
// StringMap and AppendStringMap: the same bytes, or an error from both, or
// TranscodeStringMap declining (ErrFallback) an object it does not write
// as it came in.
func checkTranscodeStringMap(t *testing.T, value string) {
	d, ok := atMember(t, value)
	if !ok {
		return
	}
	got, n, err := TranscodeStringMap(d, []byte("x"))
	d, _ = atMember(t, value)
	var m map[string]string
	wantErr := StringMap(d, &m)
	if err == ErrFallback && wantErr == nil {
		return
	}
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("%s: TranscodeStringMap: %v, StringMap: %v", value, err, wantErr)
	}
	if err != nil {
		return
	}
	if want := AppendStringMap([]byte("x"), m); !bytes.Equal(got, want) || n != len(m) {
		t.Fatalf("%s: TranscodeStringMap wrote %s (%d members), StringMap and AppendStringMap %s (%d)", value, got, n, want, len(m))
	}
	if EmptyRaw(got[1:]) != (len(m) == 0) {
		t.Fatalf("%s: EmptyRaw(%s) is %v for a map of %d members", value, got[1:], EmptyRaw(got[1:]), len(m))
	}
}

var stringMapSeeds = []string{
	`null`, `{}`, `{"a":"1"}`, `{"a":"1","b":"2"}`, `{"b":"1","a":"2"}`, `{"a":"1","a":"2"}`,
	`{"a":"1","a ":"2"}`, `{"a ":"1","a":"2"}`, `{"a":"1","a!":"2","ab":"3"}`, `{"\u0061":"x"}`, `{"a\n":"x"}`,
	`{"\u2028":"x"}`, "{\"\xe2\x80\xa8\":\"x\"}", "{\"\xff\":\"x\"}", `{"a":null}`, `{"a":"\u2029"}`, `{"a":"<&>"}`,
	`{"a":1}`, `[]`, `"x"`, `{"é":"1","z":"2"}`, `{"z":"1","é":"2"}`,
}

func TestTranscodeStringMapWritesWhatStringMapAndAppendStringMapWrite(t *testing.T) {
	for _, v := range stringMapSeeds {
		checkTranscodeStringMap(t, v)
	}
}

// TestTranscodeStringMapDeclinesWhatItWouldWriteOtherwise: the maps whose
// names are not sorted, given twice, or escaped go to the typed path.
func TestTranscodeStringMapDeclinesWhatItWouldWriteOtherwise(t *testing.T) {
	for _, v := range []string{`{"b":"1","a":"2"}`, `{"a":"1","a":"2"}`, `{"a ":"1","a":"2"}`, `{"\u0061":"x"}`, "{\"\xe2\x80\xa8\":\"x\"}", `{"é":"1","a":"2"}`} {
		d, _ := atMember(t, v)
		if _, _, err := TranscodeStringMap(d, nil); err != ErrFallback {
			t.Errorf("%s: TranscodeStringMap: %v, want ErrFallback", v, err)
		}
	}
}

func FuzzTranscodeStringMap(f *testing.F) {
	for _, v := range stringMapSeeds {
		f.Add(v)
	}
	f.Fuzz(checkTranscodeStringMap)
}

// checkTranscodeInt transcodes value with TranscodeInt and with Int and
// AppendInt, at every bit size: the same bytes and zero, or an error from
// both (ErrFallback where Int leaves the value to the reflection codec).
func checkTranscodeInt(t *testing.T, value string) {
	for _, bits := range []int{8, 16, 32, 64, 0} {
		d, ok := atMember(t, value)
		if !ok {
			return
		}
		got, zero, err := TranscodeInt(d, []byte("x"), bits)
		d, _ = atMember(t, value)
		var n int64
		wantErr := Int(d, &n, bits)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("%s, %d bits: TranscodeInt: %v, Int: %v", value, bits, err, wantErr)
		}
		if err != nil {
			continue
		}
		if want := AppendInt([]byte("x"), n); !bytes.Equal(got, want) || zero != (n == 0) {
			t.Fatalf("%s, %d bits: TranscodeInt wrote %s (zero %v), Int and AppendInt %s", value, bits, got, zero, want)
		}
	}
}

var intSeeds = []string{
	`0`, `-0`, `1`, `-1`, `127`, `128`, `-128`, `-129`, `2147483647`, `2147483648`, `-2147483648`,
	`999999999999999999`, `-999999999999999999`, `9223372036854775807`, `9223372036854775808`, `-9223372036854775808`,
	`1.0`, `1e3`, `-0.0`, `0.5`, `null`, `"1"`, `true`, `[]`,
}

func TestTranscodeIntWritesWhatIntAndAppendIntWrite(t *testing.T) {
	for _, v := range intSeeds {
		checkTranscodeInt(t, v)
	}
}

func FuzzTranscodeInt(f *testing.F) {
	for _, v := range intSeeds {
		f.Add(v)
	}
	f.Fuzz(checkTranscodeInt)
}

// TestTranscodeStringMapWritesMapsAsTheAPIServerDoes: maps with plain
// names in increasing order, as the API server writes them, are transcoded,
// not declined (which checkTranscodeStringMap allows).
func TestTranscodeStringMapWritesMapsAsTheAPIServerDoes(t *testing.T) {
	for _, v := range []string{`null`, `{}`, `{"a":"1"}`, `{"a":"1","a ":"2","b":"3"}`, `{"app":"widgets","tier":"gold"}`, `{"z":"1","é":"2"}`} {
		d, _ := atMember(t, v)
		if _, _, err := TranscodeStringMap(d, nil); err != nil {
			t.Errorf("%s: TranscodeStringMap: %v", v, err)
		}
	}
}
