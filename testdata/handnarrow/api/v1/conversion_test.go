package v1

import (
	"testing"

	v2 "github.com/crdforge/crdforge/testdata/handnarrow/api/v2"
	"sigs.k8s.io/randfill"
)

// The Convert_ functions that only hand-written ConvertTo and ConvertFrom
// call copy a value the hub's enum lacks, as conversion-gen's do: the
// author's methods decide what reaches storage.
func TestHandWrittenConvertToCopiesAnyProtocol(t *testing.T) {
	in := &Balancer{Spec: BalancerSpec{Listener: ListenerSpec{Port: 80, Protocol: "tcp"}}}
	hub := &v2.Balancer{}
	if err := in.ConvertTo(hub); err != nil {
		t.Fatal(err)
	}
	if hub.Spec.Listener.Protocol != "tcp" {
		t.Fatalf("protocol = %q, want tcp", hub.Spec.Listener.Protocol)
	}
}

// crdforge's own ConvertTo still refuses to store a value the storage
// version's schema rejects.
func TestGeneratedConvertToChecksTheEnum(t *testing.T) {
	in := &Gateway{Spec: GatewaySpec{Protocol: "tcp"}}
	if err := in.ConvertTo(&v2.Gateway{}); err == nil {
		t.Fatal("converting protocol tcp into v2 succeeded, want an error naming the field")
	}
}

// conversionFillFuncs gives the generated round-trip tests of Gateway
// protocols that v2 allows; Balancer's take any string.
func conversionFillFuncs() []any {
	protocols := []string{"TCP", "UDP"}
	return []any{
		func(s *GatewaySpec, c randfill.Continue) {
			c.FillNoCustom(s)
			s.Protocol = protocols[c.Intn(2)]
		},
		func(s *v2.GatewaySpec, c randfill.Continue) {
			c.FillNoCustom(s)
			s.Protocol = v2.Protocol(protocols[c.Intn(2)])
		},
	}
}
