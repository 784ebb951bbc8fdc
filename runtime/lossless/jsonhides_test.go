package lossless

import (
	"encoding/json"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

// shardHub and shardOld are apigen seed 174312854's Sprocket status: the
// hub's inline embedded pointer holds a struct field JSON always writes
// (omitempty never leaves out a struct), the old version's holds nothing.
type shardHub struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            shardHubStatus `json:"status,omitempty"`
}

type shardHubStatus struct {
	*HubShardEmbed `json:",inline"`
}

type HubShardEmbed struct {
	Shard shardMode `json:"shard,omitempty"`
}

type shardMode struct {
	Mode bool `json:"x-mode"`
}

type shardOld struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            shardOldStatus `json:"status,omitempty"`
}

type shardOldStatus struct {
	*OldShardEmbed `json:",inline"`
}

type OldShardEmbed struct{}

// shardFromHub, shardToHub and shardLost are what crdforge generates.
func shardFromHub(in *shardHub, out *shardOld, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Status.OldShardEmbed = nil
	if in.Status.HubShardEmbed != nil {
		out.Status.OldShardEmbed = &OldShardEmbed{}
	}
	return nil
}

func shardToHub(in *shardOld, out *shardHub, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Status.HubShardEmbed = nil
	if in.Status.OldShardEmbed != nil {
		out.Status.HubShardEmbed = &HubShardEmbed{}
	}
	return nil
}

func shardLost(in *shardHub) bool {
	return in.Status.HubShardEmbed != nil && in.Status.Shard != (shardMode{})
}

// A non-nil embedded pointer whose struct JSON writes a member of, at its
// zero value, converted to a version whose struct writes nothing, reads
// back nil there: the stash keeps that it was not nil, so that the member
// comes back, though the Go round trip, and so the loss check, lose
// nothing.
func TestAnEmbeddedPointerJSONDropsInTheDestinationIsStashed(t *testing.T) {
	fromHub := Checked("v1beta1", "v1alpha1", shardFromHub, shardLost)
	toHub := Lossless("v1alpha1", "v1beta1", shardToHub)
	var hub shardHub
	if err := json.Unmarshal([]byte(`{"status":{"shard":{}}}`), &hub); err != nil {
		t.Fatal(err)
	}
	old := throughJSON(t, convert[shardHub, shardOld](t, &hub, fromHub, toHub))
	back := throughJSON(t, convert[shardOld, shardHub](t, old, toHub, fromHub))
	if got, want := jsonOf(t, back.Status), `{"shard":{"x-mode":false}}`; got != want {
		t.Errorf("status back as %s, want %s (stash %q)", got, want, old.Annotations[Annotation("v1beta1")])
	}
}

// quantityOld and quantityHub are apigen seed 71's Widget spec: the hub
// (the storage version) leaves out a *Quantity of "0", which the old
// version writes.
type quantityOld struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Ports *resource.Quantity `json:"ports"`
	} `json:"spec"`
}

type quantityHub struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Ports *resource.Quantity `json:"ports,omitempty,omitzero"`
	} `json:"spec"`
}

func quantityToHub(in *quantityOld, out *quantityHub, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec.Ports = in.Spec.Ports
	return nil
}

func quantityFromHub(in *quantityHub, out *quantityOld, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec.Ports = in.Spec.Ports
	return nil
}

// A value JSON leaves out in the destination's omitzero field (IsZero says
// so of a Quantity of "0") but writes in the source's is stashed, though
// the Go conversion is lossless both ways: a client's "0" comes back "0",
// not null.
func TestAZeroTheDestinationsOmitzeroDropsIsStashed(t *testing.T) {
	toHub := Lossless("v1beta1", "v1", quantityToHub)
	fromHub := Lossless("v1", "v1beta1", quantityFromHub)
	var old quantityOld
	if err := json.Unmarshal([]byte(`{"spec":{"ports":"0"}}`), &old); err != nil {
		t.Fatal(err)
	}
	hub := throughJSON(t, convert[quantityOld, quantityHub](t, &old, toHub, fromHub))
	if got, want := jsonOf(t, hub.Spec), `{}`; got != want {
		t.Errorf("hub spec %s, want %s", got, want)
	}
	back := throughJSON(t, convert[quantityHub, quantityOld](t, hub, fromHub, toHub))
	if got, want := jsonOf(t, back.Spec), `{"ports":"0"}`; got != want {
		t.Errorf("spec back as %s, want %s (stash %q)", got, want, hub.Annotations[Annotation("v1beta1")])
	}
	// A value JSON writes in both needs no stash.
	old.Spec.Ports = resource.NewQuantity(2, resource.DecimalSI)
	if hub := convert[quantityOld, quantityHub](t, &old, toHub, fromHub); len(hub.Annotations) > 0 {
		t.Errorf("stash %v, want none", hub.Annotations)
	}
}

// emptyElemOld and emptyElemHub hold a list whose elements embed a pointer
// to a struct with no fields, as apigen seed 45's GadgetImage2 does.
type emptyElemOld struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Items []emptyElem `json:"items"`
		Old   string      `json:"old,omitempty"`
	} `json:"spec"`
}

type emptyElemHub struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Items []emptyElem `json:"items"`
	} `json:"spec"`
}

type emptyElem struct {
	*EmptyEmbed `json:",inline"`
	Name        string `json:"name"`
}

type EmptyEmbed struct{}

// emptyElemToHub drops Old; emptyElemFromHub makes every element's embedded
// pointer, which JSON shows nothing of.
func emptyElemToHub(in *emptyElemOld, out *emptyElemHub, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec.Items = in.Spec.Items
	return nil
}

func emptyElemFromHub(in *emptyElemHub, out *emptyElemOld, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec.Items = make([]emptyElem, len(in.Spec.Items))
	for i, e := range in.Spec.Items {
		out.Spec.Items[i] = emptyElem{EmptyEmbed: &EmptyEmbed{}, Name: e.Name}
	}
	return nil
}

// A list stored whole whose elements differ from the round trip's only in
// an embedded pointer to a struct with no fields, nil on one side, is no
// loss: only the field that is lost is stashed.
func TestAnEmbeddedPointerToAnEmptyStructInAListIsNoLoss(t *testing.T) {
	toHub := RoundTrip("v1alpha1", "v1", emptyElemToHub)
	fromHub := Lossless("v1", "v1alpha1", emptyElemFromHub)
	var old emptyElemOld
	if err := json.Unmarshal([]byte(`{"spec":{"items":[{"name":"a"}],"old":"x"}}`), &old); err != nil {
		t.Fatal(err)
	}
	hub := convert[emptyElemOld, emptyElemHub](t, &old, toHub, fromHub)
	if got, want := hub.Annotations[Annotation("v1alpha1")], `sparse:{"spec":{"old":"x"}}`; got != want {
		t.Errorf("stash %s, want %s", got, want)
	}
}

// nullValueOld and nullValueHub hold a map whose values may be null, which
// the API server drops; the hub hides data in JSON (an omitzero Quantity).
type nullValueOld struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Labels map[string][]string `json:"labels"`
	} `json:"spec"`
}

type nullValueHub struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Labels map[string][]string `json:"labels"`
		Ports  *resource.Quantity  `json:"ports,omitzero"`
	} `json:"spec"`
}

func nullValueToHub(in *nullValueOld, out *nullValueHub, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec.Labels = in.Spec.Labels
	return nil
}

func nullValueFromHub(in *nullValueHub, out *nullValueOld, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec.Labels = in.Spec.Labels
	return nil
}

// A destination that hides data in JSON is read back as encoding/json reads
// it, not as the API server stores it: a null map value, which the API
// server would drop from the source as well, is no loss of the conversion
// (apigen seed 477373919).
func TestANullTheAPIServerDropsIsNoLossOfAConversion(t *testing.T) {
	toHub := Lossless("v1beta1", "v1", nullValueToHub)
	fromHub := Lossless("v1", "v1beta1", nullValueFromHub)
	old := &nullValueOld{}
	old.Spec.Labels = map[string][]string{"a": nil, "b": {"x"}}
	if hub := convert[nullValueOld, nullValueHub](t, old, toHub, fromHub); len(hub.Annotations) > 0 {
		t.Errorf("stash %v, want none", hub.Annotations)
	}
}
