package typedjson

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
)

// decodeQuantity decodes the JSON value data as a quantity with d.
func decodeQuantity(d *Decoder, data string) (resource.Quantity, error) {
	var q resource.Quantity
	err := decodeWith(d, []byte(data), nil, &q, Quantity)
	return q, err
}

// parseAsTheMethod is what Quantity must give for the JSON string or
// number data: ParseQuantity of it, quotes off and spaces trimmed.
func parseAsTheMethod(data string) (resource.Quantity, error) {
	return resource.ParseQuantity(strings.TrimSpace(strings.Trim(data, `"`)))
}

// A quantity decoded again, by the same decoder, is the quantity
// ParseQuantity gives, whether the decoder kept it or not; and its errors
// are ParseQuantity's.
func TestQuantityDecodedAgainIsParseQuantitys(t *testing.T) {
	inputs := []string{
		`"250m"`, `"1Ki"`, `" 2 "`, `"-0.5"`, `5`, `1.5`, `"1e3"`, `"0"`,
		`"123456789012345678901234567890"`, `"1e100"`, `"0.000000000000000000001"`,
		`"1.5.5"`, `""`, `"Gi"`,
	}
	var d Decoder
	for round := 0; round < 3; round++ {
		for _, in := range inputs {
			got, err := decodeQuantity(&d, in)
			want, wantErr := parseAsTheMethod(in)
			if (err != nil) != (wantErr != nil) || (err == nil && !reflect.DeepEqual(got, want)) {
				t.Errorf("round %d, %s: got %#v, %v; want %#v, %v", round, in, got, err, want, wantErr)
			}
		}
	}
}

// A quantity held as an inf.Dec, which its methods change in place, is not
// shared with the next one decoded.
func TestQuantityHeldAsDecIsNotShared(t *testing.T) {
	const big = `"123456789012345678901234567890"`
	var d Decoder
	first, err := decodeQuantity(&d, big)
	if err != nil {
		t.Fatal(err)
	}
	first.Add(resource.MustParse("1"))
	first.Neg()
	again, err := decodeQuantity(&d, big)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := parseAsTheMethod(big); again.Cmp(want) != 0 {
		t.Errorf("decoded again after the first was changed: %s, want %s", again.String(), want.String())
	}
}

// heldAsDec tells the two ways a quantity holds its value: if the layout
// it reads changes, this fails rather than every quantity going unkept.
func TestHeldAsDec(t *testing.T) {
	for s, want := range map[string]bool{
		"250m": false, "1Ki": false, "0": false, "-3": false,
		"1e100": false, "123456789012345678901234567890": true, "0.000000000000000000001": true,
	} {
		if got := heldAsDec(resource.MustParse(s)); got != want {
			t.Errorf("heldAsDec(%s) = %t, want %t", s, got, want)
		}
	}
}

// A stored object's quantities, parsed once, are each kept in a slot of
// their own, so that the next objects' are not parsed again.
func TestQuantitiesOfAnObjectAreKept(t *testing.T) {
	var d Decoder
	texts := []string{"250m", "1Ki", "500Mi", "2", "100m", "1Gi", "128Mi", "4"}
	for _, s := range texts {
		if _, err := d.parsed([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range texts {
		pair := d.quantities[pairAt([]byte(s), quantitySlots):][:2]
		if pair[0].text != s && pair[1].text != s {
			t.Errorf("%s is not kept: its slots hold %q and %q", s, pair[0].text, pair[1].text)
		}
	}
}

func FuzzQuantity(f *testing.F) {
	for _, s := range []string{"250m", "1Ki", " 2 ", "1e100", "123456789012345678901234567890", "1.5.5", ""} {
		f.Add(s, "1Ki")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		var d Decoder
		for n := 0; n < 2; n++ {
			for _, s := range []string{a, b} {
				in, err := json.Marshal(s)
				if err != nil || strings.ContainsAny(string(in), `\`) {
					return // escapes reach ParseQuantity as they are: another test's business
				}
				got, err := decodeQuantity(&d, string(in))
				want, wantErr := parseAsTheMethod(string(in))
				if (err != nil) != (wantErr != nil) || (err == nil && !reflect.DeepEqual(got, want)) {
					t.Fatalf("%s: got %#v, %v; want %#v, %v", in, got, err, want, wantErr)
				}
			}
		}
	})
}
