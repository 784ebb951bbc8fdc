package apicheck

import (
	"encoding/json"
	"testing"
)

// TestMemberwise: a round trip's answer may take each member from the
// object sent or from encoding/json's reading of it, but loses or invents
// none (apigen seed 762685199: a stash kept "shard": {} that the reading
// drops, beside an edited "until" that came back as read).
func TestMemberwise(t *testing.T) {
	tests := []struct {
		name           string
		got, sent, own string
		want           bool
	}{
		{"as sent", `{"a":{}}`, `{"a":{}}`, `{}`, true},
		{"as read", `{}`, `{"a":{}}`, `{}`, true},
		{"each member from either", `{"shard":{},"until":{}}`, `{"shard":{},"until":{"extra":"0s"}}`, `{"until":{}}`, true},
		{"in list elements too", `[{"a":1,"b":{}}]`, `[{"a":1,"b":{},"c":""}]`, `[{"a":1}]`, true},
		{"a member lost", `{"until":{}}`, `{"shard":{},"until":{}}`, `{"shard":{},"until":{}}`, false},
		{"a member invented", `{"x":1}`, `{}`, `{}`, false},
		{"a value neither has", `{"a":2}`, `{"a":1}`, `{"a":3}`, false},
		{"a list of another length", `[1]`, `[1,2]`, `[1,2,3]`, false},
	}
	for _, tc := range tests {
		var got, sent, own any
		for _, v := range []struct {
			s   string
			dst *any
		}{{tc.got, &got}, {tc.sent, &sent}, {tc.own, &own}} {
			if err := json.Unmarshal([]byte(v.s), v.dst); err != nil {
				t.Fatal(err)
			}
		}
		if memberwise(got, sent, own) != tc.want {
			t.Errorf("%s: memberwise(%s, %s, %s) = %v", tc.name, tc.got, tc.sent, tc.own, !tc.want)
		}
	}
}
