package lossless

import (
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

// relay keeps its network behind a pointer; flatRelay, the other version,
// holds host and port at the top of its spec and has no proto.
type relay struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              relaySpec `json:"spec,omitempty"`
}

type relaySpec struct {
	Network *relayNetwork `json:"network,omitempty"`
}

type relayNetwork struct {
	Host  string `json:"host"`
	Port  int32  `json:"port"`
	Proto string `json:"proto,omitempty"`
	// Tags is written [] when empty and null when nil.
	Tags []string `json:"tags"`
}

type flatRelay struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              flatRelaySpec `json:"spec,omitempty"`
}

type flatRelaySpec struct {
	Host string   `json:"host"`
	Port int32    `json:"port"`
	Tags []string `json:"tags"`
}

func relayToFlat(in *relay, out *flatRelay, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec = flatRelaySpec{}
	if n := in.Spec.Network; n != nil {
		out.Spec.Host, out.Spec.Port, out.Spec.Tags = n.Host, n.Port, n.Tags
	}
	return nil
}

func flatToRelay(in *flatRelay, out *relay, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec.Network = &relayNetwork{Host: in.Spec.Host, Port: in.Spec.Port, Tags: in.Spec.Tags}
	return nil
}

var (
	relayToFlatDir = Checked("v1", "v1beta1", relayToFlat, func(in *relay) bool {
		return in.Spec.Network == nil || in.Spec.Network.Proto != ""
	})
	flatToRelayDir = Checked("v1beta1", "v1", flatToRelay, func(*flatRelay) bool { return false })
)

// TestAnEditInsideAStashedStructKeepsItsOtherFields: host moved into the
// hub's network (a pointer, stashed whole); a client of v1beta1 edits host;
// back at v1, network has the edited host, and the port and proto the
// stash kept (cluster-api#9375).
func TestAnEditInsideAStashedStructKeepsItsOtherFields(t *testing.T) {
	src := &relay{Spec: relaySpec{Network: &relayNetwork{Host: "a", Port: 80, Proto: "udp"}}}
	flat := convert[relay, flatRelay](t, src, relayToFlatDir, flatToRelayDir)
	flat.Spec.Host = "b"
	before := *flat.DeepCopyForTest()
	back := convert[flatRelay, relay](t, flat, flatToRelayDir, relayToFlatDir)
	want := &relayNetwork{Host: "b", Port: 80, Proto: "udp"}
	if !reflect.DeepEqual(back.Spec.Network, want) {
		t.Errorf("network = %+v, want %+v", back.Spec.Network, want)
	}
	if !reflect.DeepEqual(*flat, before) {
		t.Errorf("restoring changed the source:\n got %+v\nwant %+v", *flat, before)
	}
	if !reflect.DeepEqual(*src.Spec.Network, relayNetwork{Host: "a", Port: 80, Proto: "udp"}) {
		t.Errorf("restoring changed the original: %+v", *src.Spec.Network)
	}
}

// TestAnEditOfNilnessInsideAStashedStructWins: as above, but the edit also
// turns a nil list the network holds into [], which JSON shows (a list
// without omitempty is written null, which the API server drops, or []):
// the merged network keeps the edited [] and takes only what the edit left
// alone from the stash (apigen seed 418734725).
func TestAnEditOfNilnessInsideAStashedStructWins(t *testing.T) {
	src := &relay{Spec: relaySpec{Network: &relayNetwork{Host: "a", Proto: "udp"}}}
	flat := convert[relay, flatRelay](t, src, relayToFlatDir, flatToRelayDir)
	flat.Spec.Host, flat.Spec.Tags = "b", []string{}
	back := convert[flatRelay, relay](t, flat, flatToRelayDir, relayToFlatDir)
	want := &relayNetwork{Host: "b", Proto: "udp", Tags: []string{}}
	if !reflect.DeepEqual(back.Spec.Network, want) {
		t.Errorf("network = %#v, want %#v", back.Spec.Network, want)
	}
}

func (in *flatRelay) DeepCopyForTest() *flatRelay {
	out := *in
	out.ObjectMeta = *in.ObjectMeta.DeepCopy()
	return &out
}
