package conversiontest

// This file defines the types the package's tests convert: a hub Widget
// (think v1) and a spoke (think v1beta1), written by hand the way crdforge
// generates them, plus variants of the spoke with the bugs RoundTrip must
// catch. The types are exported because randfill fills exported fields
// only, and the variants embed the spoke.

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
)

// WidgetHub is the hub version.
type WidgetHub struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetHubSpec `json:"spec,omitempty"`
}

// WidgetHubSpec has fields the spoke lacks (Template, Suspend) and a pointer
// the spoke holds as a plain value (Replicas).
type WidgetHubSpec struct {
	Schedule string                `json:"schedule,omitempty"`
	Replicas *int32                `json:"replicas,omitempty"`
	Size     resource.Quantity     `json:"size"`
	Port     intstr.IntOrString    `json:"port"`
	Selector map[string]string     `json:"selector,omitempty"`
	Steps    []WidgetStep          `json:"steps,omitempty"`
	Deadline *metav1.Time          `json:"deadline,omitempty"`
	Config   *apiextensionsv1.JSON `json:"config,omitempty"`

	Template *runtime.RawExtension `json:"template,omitempty"`
	Suspend  bool                  `json:"suspend,omitempty"`
}

// WidgetStep is shared by both versions.
type WidgetStep struct {
	Name    string                       `json:"name"`
	Timeout metav1.Duration              `json:"timeout"`
	Limits  map[string]resource.Quantity `json:"limits,omitempty"`
	Started metav1.MicroTime             `json:"started"`
}

// WidgetSpoke is the spoke version.
type WidgetSpoke struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetSpokeSpec `json:"spec,omitempty"`
}

// WidgetSpokeSpec renames Schedule, holds Replicas by value, and has a field
// the hub lacks (Legacy).
type WidgetSpokeSpec struct {
	CronSpec string                `json:"cronSpec,omitempty"`
	Replicas int32                 `json:"replicas"`
	Size     resource.Quantity     `json:"size"`
	Port     intstr.IntOrString    `json:"port"`
	Selector map[string]string     `json:"selector,omitempty"`
	Steps    []WidgetStep          `json:"steps,omitempty"`
	Deadline *metav1.Time          `json:"deadline,omitempty"`
	Config   *apiextensionsv1.JSON `json:"config,omitempty"`

	Legacy string `json:"legacy,omitempty"`
}

// The stash annotations: what the hub cannot hold of a spoke is kept on the
// hub under the spoke's version, and the other way round.
const (
	spokeStash = stashAnnotationPrefix + "v1beta1"
	hubStash   = stashAnnotationPrefix + "v1"
)

// spokeOnly is what the hub cannot hold of a spoke.
type spokeOnly struct {
	Legacy string `json:"legacy,omitempty"`
}

// hubOnly is what the spoke cannot hold of a hub.
type hubOnly struct {
	Template    *runtime.RawExtension `json:"template,omitempty"`
	Suspend     bool                  `json:"suspend,omitempty"`
	NilReplicas bool                  `json:"nilReplicas,omitempty"`
}

func (*WidgetHub) Hub() {}

// ConvertTo converts s to the hub, stashing Legacy on it and restoring the
// hub-only fields s carries from an earlier ConvertFrom.
func (s *WidgetSpoke) ConvertTo(dstRaw conversion.Hub) error {
	dst := dstRaw.(*WidgetHub)
	dst.APIVersion, dst.Kind = "example.com/v1", "Widget"
	s.ObjectMeta.DeepCopyInto(&dst.ObjectMeta)

	var extra hubOnly
	if err := unstash(&dst.ObjectMeta, hubStash, &extra); err != nil {
		return err
	}
	in := s.Spec.DeepCopy()
	dst.Spec = WidgetHubSpec{
		Schedule: in.CronSpec,
		Replicas: &in.Replicas,
		Size:     in.Size,
		Port:     in.Port,
		Selector: in.Selector,
		Steps:    in.Steps,
		Deadline: in.Deadline,
		Config:   in.Config,
		Template: extra.Template,
		Suspend:  extra.Suspend,
	}
	if extra.NilReplicas {
		dst.Spec.Replicas = nil
	}
	return stash(&dst.ObjectMeta, spokeStash, spokeOnly{Legacy: in.Legacy})
}

// ConvertFrom converts the hub to s, stashing the hub-only fields on s and
// restoring Legacy from the hub.
func (s *WidgetSpoke) ConvertFrom(srcRaw conversion.Hub) error {
	src := srcRaw.(*WidgetHub)
	s.APIVersion, s.Kind = "example.com/v1beta1", "Widget"
	src.ObjectMeta.DeepCopyInto(&s.ObjectMeta)

	var extra spokeOnly
	if err := unstash(&s.ObjectMeta, spokeStash, &extra); err != nil {
		return err
	}
	in := src.Spec.DeepCopy()
	s.Spec = WidgetSpokeSpec{
		CronSpec: in.Schedule,
		Size:     in.Size,
		Port:     in.Port,
		Selector: in.Selector,
		Steps:    in.Steps,
		Deadline: in.Deadline,
		Config:   in.Config,
		Legacy:   extra.Legacy,
	}
	if in.Replicas != nil {
		s.Spec.Replicas = *in.Replicas
	}
	return stash(&s.ObjectMeta, hubStash, hubOnly{
		Template:    in.Template,
		Suspend:     in.Suspend,
		NilReplicas: in.Replicas == nil,
	})
}

// stash writes v as JSON into meta's annotation key, unless v is its zero
// value: an object with nothing to keep must come back without an
// annotation it never had.
func stash[T comparable](meta *metav1.ObjectMeta, key string, v T) error {
	var zero T
	if v == zero {
		return nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if meta.Annotations == nil {
		meta.Annotations = map[string]string{}
	}
	meta.Annotations[key] = string(raw)
	return nil
}

// unstash decodes and removes meta's annotation key, if present.
func unstash(meta *metav1.ObjectMeta, key string, into any) error {
	raw, ok := meta.Annotations[key]
	if !ok {
		return nil
	}
	delete(meta.Annotations, key)
	return json.Unmarshal([]byte(raw), into)
}

// The bugs. Each variant embeds WidgetSpoke and overrides one method, so
// DeepCopyObject must be overridden too to return the variant's type.

// ForgetsLegacy does not stash the spoke-only field: spoke-hub-spoke must fail.
type ForgetsLegacy struct{ WidgetSpoke }

func (s *ForgetsLegacy) ConvertTo(dst conversion.Hub) error {
	if err := s.WidgetSpoke.ConvertTo(dst); err != nil {
		return err
	}
	delete(dst.(*WidgetHub).Annotations, spokeStash)
	return nil
}

func (s *ForgetsLegacy) DeepCopyObject() runtime.Object {
	return &ForgetsLegacy{*s.WidgetSpoke.DeepCopy()}
}

// DropsSuspend loses the hub-only Suspend field: hub-spoke-hub must fail.
type DropsSuspend struct{ WidgetSpoke }

func (s *DropsSuspend) ConvertFrom(src conversion.Hub) error {
	in := src.(*WidgetHub).DeepCopy()
	in.Spec.Suspend = false
	return s.WidgetSpoke.ConvertFrom(in)
}

func (s *DropsSuspend) DeepCopyObject() runtime.Object {
	return &DropsSuspend{*s.WidgetSpoke.DeepCopy()}
}

// RejectsNegativeReplicas returns an error for a negative replica count, a
// value random objects often have: without a fill function that generates
// valid replicas, spoke-hub-spoke must fail.
type RejectsNegativeReplicas struct{ WidgetSpoke }

func (s *RejectsNegativeReplicas) ConvertTo(dst conversion.Hub) error {
	if s.Spec.Replicas < 0 {
		return fmt.Errorf("spec.replicas: %d is negative", s.Spec.Replicas)
	}
	return s.WidgetSpoke.ConvertTo(dst)
}

func (s *RejectsNegativeReplicas) DeepCopyObject() runtime.Object {
	return &RejectsNegativeReplicas{*s.WidgetSpoke.DeepCopy()}
}

// AliasesAnnotations shares the annotation map between spoke and hub, then
// stashes into it, which writes the stash into the source too: a bug that
// passes a naive round trip.
type AliasesAnnotations struct{ WidgetSpoke }

func (s *AliasesAnnotations) ConvertTo(dstRaw conversion.Hub) error {
	if err := s.WidgetSpoke.ConvertTo(dstRaw); err != nil {
		return err
	}
	dst := dstRaw.(*WidgetHub)
	if s.Annotations != nil {
		maps.Copy(s.Annotations, dst.Annotations) // the shallow copy's effect
	}
	return nil
}

func (s *AliasesAnnotations) DeepCopyObject() runtime.Object {
	return &AliasesAnnotations{*s.WidgetSpoke.DeepCopy()}
}

// DropsStashInPlace deletes the stash annotation from the object it
// converts from, as Cluster API's conversions delete their data annotation:
// the object's own map, which it may change.
type DropsStashInPlace struct{ WidgetSpoke }

func (s *DropsStashInPlace) ConvertTo(dstRaw conversion.Hub) error {
	if err := s.WidgetSpoke.ConvertTo(dstRaw); err != nil {
		return err
	}
	for k := range s.Annotations {
		if strings.HasPrefix(k, "conversion.crdforge.io/") {
			delete(s.Annotations, k)
		}
	}
	return nil
}

func (s *DropsStashInPlace) DeepCopyObject() runtime.Object {
	return &DropsStashInPlace{*s.WidgetSpoke.DeepCopy()}
}

// EmptiesSharedSelector shares Selector with the hub it converts from, as a
// conversion may share memory with its source, and on the way back, when it
// restores stashed data, empties the selector of the spoke it converts from
// after copying it into the hub: a map the hub it came from still holds.
// Only the way back, from a spoke that shares the hub's map and carries a
// stash, shows the bug, and the result is right.
type EmptiesSharedSelector struct{ WidgetSpoke }

func (s *EmptiesSharedSelector) ConvertFrom(srcRaw conversion.Hub) error {
	if err := s.WidgetSpoke.ConvertFrom(srcRaw); err != nil {
		return err
	}
	s.Spec.Selector = srcRaw.(*WidgetHub).Spec.Selector
	return nil
}

func (s *EmptiesSharedSelector) ConvertTo(dstRaw conversion.Hub) error {
	_, restoring := s.Annotations[hubStash]
	if err := s.WidgetSpoke.ConvertTo(dstRaw); err != nil {
		return err
	}
	if restoring {
		clear(s.Spec.Selector)
	}
	return nil
}

func (s *EmptiesSharedSelector) DeepCopyObject() runtime.Object {
	return &EmptiesSharedSelector{*s.WidgetSpoke.DeepCopy()}
}

// LosesDeadlineInJSON writes its JSON without the deadline, as a spoke
// whose tag leaves out what the hub's writes (issue 58, item 5: tags: []
// under omitzero in the hub, omitempty in the spoke): the conversions in
// memory are exact, and only a round trip through JSON sees the loss.
type LosesDeadlineInJSON struct{ WidgetSpoke }

func (s *LosesDeadlineInJSON) MarshalJSON() ([]byte, error) {
	c := s.WidgetSpoke
	c.Spec.Deadline = nil
	return json.Marshal(&c)
}

func (s *LosesDeadlineInJSON) DeepCopyObject() runtime.Object {
	return &LosesDeadlineInJSON{*s.WidgetSpoke.DeepCopy()}
}

// PanicsOnNilDeadline dereferences a pointer without checking it.
type PanicsOnNilDeadline struct{ WidgetSpoke }

func (s *PanicsOnNilDeadline) ConvertFrom(src conversion.Hub) error {
	_ = src.(*WidgetHub).Spec.Deadline.Time
	return s.WidgetSpoke.ConvertFrom(src)
}

func (s *PanicsOnNilDeadline) DeepCopyObject() runtime.Object {
	return &PanicsOnNilDeadline{*s.WidgetSpoke.DeepCopy()}
}

// Deep copies, written by hand as deepcopy-gen would generate them.

func (in *WidgetHub) DeepCopy() *WidgetHub {
	out := &WidgetHub{TypeMeta: in.TypeMeta}
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec = *in.Spec.DeepCopy()
	return out
}

func (in *WidgetHub) DeepCopyObject() runtime.Object { return in.DeepCopy() }

func (in *WidgetHubSpec) DeepCopy() *WidgetHubSpec {
	out := *in
	if in.Replicas != nil {
		r := *in.Replicas
		out.Replicas = &r
	}
	out.Size = in.Size.DeepCopy()
	out.Selector = maps.Clone(in.Selector)
	out.Steps = deepCopySteps(in.Steps)
	out.Deadline = in.Deadline.DeepCopy()
	out.Config = in.Config.DeepCopy()
	out.Template = in.Template.DeepCopy()
	return &out
}

func (s *WidgetSpoke) DeepCopy() *WidgetSpoke {
	out := &WidgetSpoke{TypeMeta: s.TypeMeta}
	s.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec = *s.Spec.DeepCopy()
	return out
}

func (s *WidgetSpoke) DeepCopyObject() runtime.Object { return s.DeepCopy() }

func (in *WidgetSpokeSpec) DeepCopy() *WidgetSpokeSpec {
	out := *in
	out.Size = in.Size.DeepCopy()
	out.Selector = maps.Clone(in.Selector)
	out.Steps = deepCopySteps(in.Steps)
	out.Deadline = in.Deadline.DeepCopy()
	out.Config = in.Config.DeepCopy()
	return &out
}

func deepCopySteps(in []WidgetStep) []WidgetStep {
	if in == nil {
		return nil
	}
	out := make([]WidgetStep, len(in))
	for i, s := range in {
		out[i] = s
		if s.Limits != nil {
			out[i].Limits = make(map[string]resource.Quantity, len(s.Limits))
			for k, q := range s.Limits {
				out[i].Limits[k] = q.DeepCopy()
			}
		}
		s.Started.DeepCopyInto(&out[i].Started)
	}
	return out
}

// KeepsStaleSchedule also stashes the hub's schedule on the spoke (beside
// the hub-only fields), and
// ConvertTo restores the schedule from that stash over the spoke's own
// CronSpec (cluster-api#9375): every round trip is exact, but a client's
// edit of cronSpec between two conversions is lost.
type KeepsStaleSchedule struct{ WidgetSpoke }

const staleSchedule = stashAnnotationPrefix + "schedule"

func (s *KeepsStaleSchedule) ConvertFrom(src conversion.Hub) error {
	if err := s.WidgetSpoke.ConvertFrom(src); err != nil {
		return err
	}
	// Beside the hub-only fields' stash, when there is one, so that a
	// spoke with nothing stashed comes back as it was.
	if _, ok := s.Annotations[hubStash]; ok {
		s.Annotations[staleSchedule] = src.(*WidgetHub).Spec.Schedule
	}
	return nil
}

func (s *KeepsStaleSchedule) ConvertTo(dstRaw conversion.Hub) error {
	if err := s.WidgetSpoke.ConvertTo(dstRaw); err != nil {
		return err
	}
	dst := dstRaw.(*WidgetHub)
	if schedule, ok := dst.Annotations[staleSchedule]; ok {
		dst.Spec.Schedule = schedule
		delete(dst.Annotations, staleSchedule)
	}
	return nil
}

func (s *KeepsStaleSchedule) DeepCopyObject() runtime.Object {
	return &KeepsStaleSchedule{*s.WidgetSpoke.DeepCopy()}
}

func (s *WidgetSpoke) spec() *WidgetSpokeSpec { return &s.Spec }
