package typedjson

import (
	"encoding/json"
	"strconv"
	"testing"
)

// decodeInt decodes the JSON number lit as an integer of bits bits.
func decodeInt(lit string, bits int) (int64, error) {
	var d Decoder
	var n int64
	err := decodeWith(&d, []byte(lit), nil, &n, func(d *Decoder, v *int64) error { return Int(d, v, bits) })
	return n, err
}

// checkIntAsParseInt fails t unless Int decodes the JSON number lit, for
// every bit size, as strconv.ParseInt parses it: the same value, or
// ErrFallback where ParseInt refuses it.
func checkIntAsParseInt(t *testing.T, lit string) {
	t.Helper()
	for _, bits := range []int{0, 8, 16, 32, 64} {
		got, err := decodeInt(lit, bits)
		want, wantErr := strconv.ParseInt(lit, 10, bits)
		switch {
		case wantErr != nil && err != ErrFallback:
			t.Errorf("%s, %d bits: got %d, %v; ParseInt refuses it (%v): want ErrFallback", lit, bits, got, err, wantErr)
		case wantErr == nil && (err != nil || got != want):
			t.Errorf("%s, %d bits: got %d, %v; want %d", lit, bits, got, err, want)
		}
	}
}

func TestIntAsParseInt(t *testing.T) {
	for _, lit := range []string{
		"0", "-0", "7", "-7", "127", "128", "-128", "-129", "32767", "32768", "2147483647", "2147483648",
		"-2147483648", "-2147483649", "999999999999999999", "-999999999999999999", "1000000000000000000",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"1.0", "1e3", "-1E2", "0.5", "12345678901234567890123",
	} {
		checkIntAsParseInt(t, lit)
	}
}

func FuzzInt(f *testing.F) {
	for _, lit := range []string{"0", "-128", "2147483648", "999999999999999999", "-9223372036854775809", "1e3"} {
		f.Add(lit)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		var n json.Number
		if json.Unmarshal([]byte(lit), &n) != nil || string(n) != lit {
			return // not one JSON number as it is
		}
		checkIntAsParseInt(t, lit)
	})
}
