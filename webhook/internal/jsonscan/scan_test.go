package jsonscan

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestPeekTypeMetaStopsAtBothKeysAndIsCaseSensitive(t *testing.T) {
	for _, tc := range []struct {
		name, in         string
		apiVersion, kind string
		wantErr          bool
	}{
		{"first keys", `{"apiVersion":"a/v1","kind":"K","spec":{"x":[1,{"y":"}"}]}}`, "a/v1", "K", false},
		{"after other values", ` { "metadata" : {"name":"n\"}"} , "spec":[1,2] ,"kind":"K","apiVersion":"a/v1"}`, "a/v1", "K", false},
		{"escaped value", `{"kind":"K\u0041","apiVersion":"a/v1"}`, "a/v1", "KA", false},
		{"other case is another key", `{"APIVersion":"x/v1","Kind":"X","apiVersion":"a/v1","kind":"K"}`, "a/v1", "K", false},
		{"missing kind", `{"apiVersion":"a/v1","spec":{}}`, "a/v1", "", false},
		{"empty object", `{}`, "", "", false},
		{"not an object", `["apiVersion"]`, "", "", true},
		{"not a string", `{"kind":7,"apiVersion":"a/v1"}`, "", "", true},
		{"truncated", `{"apiVersion":"a/v1"`, "", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			apiVersion, kind, err := PeekTypeMeta([]byte(tc.in))
			if (err != nil) != tc.wantErr || apiVersion != tc.apiVersion || kind != tc.kind {
				t.Errorf("got %q, %q, %v; want %q, %q, error %v", apiVersion, kind, err, tc.apiVersion, tc.kind, tc.wantErr)
			}
		})
	}
}

func TestEachKeyAndSplitArrayReturnSlicesOfTheInput(t *testing.T) {
	in := []byte(`{"a":1, "b" : [ {"x":"]"} ,2,"s",null ] ,"c\n":{}}`)
	var keys []string
	var b []byte
	err := EachKey(in, func(key string, val []byte) error {
		keys = append(keys, key)
		if key == "b" {
			b = val
		}
		return nil
	})
	if err != nil || !slices.Equal(keys, []string{"a", "b", "c\n"}) {
		t.Fatalf("keys %q, error %v", keys, err)
	}
	elems, err := SplitArray(b)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`{"x":"]"}`, `2`, `"s"`, `null`}
	if len(elems) != len(want) {
		t.Fatalf("elements %q, want %q", elems, want)
	}
	for i, e := range elems {
		if string(e) != want[i] || !json.Valid(e) {
			t.Errorf("element %d = %q, want %q", i, e, want[i])
		}
	}
	if elems, err := SplitArray([]byte("null")); elems != nil || err != nil {
		t.Errorf("null: %q, %v", elems, err)
	}
	if elems, err := SplitArray([]byte("[]")); len(elems) != 0 || err != nil {
		t.Errorf("[]: %q, %v", elems, err)
	}
	for _, bad := range []string{`{}`, `"x"`, `[1`} {
		if _, err := SplitArray([]byte(bad)); err == nil {
			t.Errorf("SplitArray(%s) succeeded", bad)
		}
	}
	if err := EachKey([]byte(`[1]`), func(string, []byte) error { return nil }); err == nil {
		t.Error("EachKey of an array succeeded")
	}
}
