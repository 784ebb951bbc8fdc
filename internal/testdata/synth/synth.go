// Package synth writes synthetic multi-version API trees for benchmarks:
// N kinds, ten to a group, each in three versions (v1alpha1, v1beta1, v1,
// the storage version, which adds two fields), with the field types real
// operators use: issue 56's synthetic group, laid out the kubebuilder way.
package synth

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Versions are the versions every kind has, oldest first; the last is the
// storage version.
var Versions = []string{"v1alpha1", "v1beta1", "v1"}

// KindsPerGroup is how many kinds share one API group.
const KindsPerGroup = 10

// Write writes a tree of n kinds under dir: dir/apis/g<i>/<version>/, one
// package per group and version. dir must lie inside a Go module that
// requires k8s.io/apimachinery and k8s.io/api.
func Write(dir string, n int) error { return WriteWithConversionGenTags(dir, n, "") }

// WriteWithConversionGenTags is Write, and when importPath (dir's import
// path) is set, tags every older version's package for conversion-gen with
// the storage version as its peer, as a conversion-gen user would.
func WriteWithConversionGenTags(dir string, n int, importPath string) error {
	for g := 0; g*KindsPerGroup < n; g++ {
		count := min(KindsPerGroup, n-g*KindsPerGroup)
		for vi, ver := range Versions {
			pkgDir := filepath.Join(dir, "apis", fmt.Sprintf("g%d", g), ver)
			if err := os.MkdirAll(pkgDir, 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(pkgDir, "groupversion_info.go"), []byte(groupVersion(g, ver)), 0o644); err != nil {
				return err
			}
			if importPath != "" && vi < len(Versions)-1 {
				peer := fmt.Sprintf("%s/apis/g%d/%s", importPath, g, Versions[len(Versions)-1])
				doc := fmt.Sprintf("// +k8s:conversion-gen=%s\n\npackage %s\n", peer, ver)
				if err := os.WriteFile(filepath.Join(pkgDir, "doc.go"), []byte(doc), 0o644); err != nil {
					return err
				}
			}
			for k := 0; k < count; k++ {
				name := fmt.Sprintf("Kind%d", g*KindsPerGroup+k)
				src := kindSource(ver, name, vi == len(Versions)-1)
				file := filepath.Join(pkgDir, strings.ToLower(name)+"_types.go")
				if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func groupVersion(g int, ver string) string {
	return fmt.Sprintf(`// Package %[1]s is version %[1]s of g%[2]d.synth.example.com.
// +kubebuilder:object:generate=true
// +groupName=g%[2]d.synth.example.com
package %[1]s

import "k8s.io/apimachinery/pkg/runtime/schema"

// GroupVersion is this package's group and version.
var GroupVersion = schema.GroupVersion{Group: "g%[2]d.synth.example.com", Version: "%[1]s"}
`, ver, g)
}

// kindSource writes one kind, with the spec shapes of a large operator's
// group (issue 56): pointers, an enum, core types (resources, env,
// tolerations), a list-map whose items hold an IntOrString, a label map, a
// duration, a nested struct holding a quantity, and a CEL rule. v1alpha1
// and v1beta1 share one shape; the storage version adds two fields, so that
// every kind needs a conversion webhook and its older versions a stash.
func kindSource(ver, name string, storage bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, `package %s

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// %[2]sPhase is where a %[2]s is in its life.
// +kubebuilder:validation:Enum=Pending;Running;Done
type %[2]sPhase string

// %[2]sPolicy says when a %[2]s restarts its copies.
// +kubebuilder:validation:Enum=Always;OnFailure;Never
type %[2]sPolicy string

// %[2]sPort is one port a %[2]s listens on.
type %[2]sPort struct {
	// Name names the port.
	// +kubebuilder:validation:MaxLength=15
	Name string `+"`json:\"name\"`"+`
	// Port is the port number.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port int32 `+"`json:\"port\"`"+`
	// Target is where traffic goes.
	// +optional
	Target intstr.IntOrString `+"`json:\"target,omitempty\"`"+`
}

// %[2]sVolume is the volume each copy of a %[2]s mounts.
type %[2]sVolume struct {
	// Size is the volume's size.
	// +optional
	Size *resource.Quantity `+"`json:\"size,omitempty\"`"+`
	// ClassName names its storage class.
	// +optional
	ClassName string `+"`json:\"className,omitempty\"`"+`
}

// %[2]sSpec is the desired state of a %[2]s.
// +kubebuilder:validation:XValidation:rule="!has(self.minReplicas) || !has(self.replicas) || self.minReplicas <= self.replicas",message="minReplicas must not exceed replicas"
type %[2]sSpec struct {
	// Replicas is how many copies run.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Replicas *int32 `+"`json:\"replicas,omitempty\"`"+`
	// MinReplicas is the floor for Replicas.
	// +kubebuilder:validation:Minimum=0
	// +optional
	MinReplicas *int32 `+"`json:\"minReplicas,omitempty\"`"+`
	// Image is what runs.
	Image string `+"`json:\"image\"`"+`
	// RestartPolicy says when copies restart.
	// +kubebuilder:default=Always
	// +optional
	RestartPolicy %[2]sPolicy `+"`json:\"restartPolicy,omitempty\"`"+`
	// Paused stops reconciliation.
	// +optional
	Paused *bool `+"`json:\"paused,omitempty\"`"+`
	// Ports lists the ports.
	// +listType=map
	// +listMapKey=name
	// +optional
	Ports []%[2]sPort `+"`json:\"ports,omitempty\"`"+`
	// Labels are copied to what the %[2]s creates.
	// +optional
	Labels map[string]string `+"`json:\"labels,omitempty\"`"+`
	// Resources bounds what each copy uses.
	// +optional
	Resources corev1.ResourceRequirements `+"`json:\"resources,omitempty\"`"+`
	// Env is each copy's environment.
	// +optional
	Env []corev1.EnvVar `+"`json:\"env,omitempty\"`"+`
	// Tolerations are each copy's tolerations.
	// +optional
	Tolerations []corev1.Toleration `+"`json:\"tolerations,omitempty\"`"+`
	// Timeout bounds each run.
	// +optional
	Timeout *metav1.Duration `+"`json:\"timeout,omitempty\"`"+`
	// Volume is what each copy mounts.
	// +optional
	Volume %[2]sVolume `+"`json:\"volume,omitempty\"`"+`
`, ver, name)
	if storage {
		b.WriteString("\t// Schedule is when it runs, in cron format.\n\t// +optional\n\tSchedule string `json:\"schedule,omitempty\"`\n")
		b.WriteString("\t// Selector picks the pods that belong to it.\n\t// +optional\n\tSelector *metav1.LabelSelector `json:\"selector,omitempty\"`\n")
	}
	fmt.Fprintf(&b, `}

// %[1]sStatus is the observed state of a %[1]s.
type %[1]sStatus struct {
	// Phase is where it is in its life.
	// +optional
	Phase %[1]sPhase `+"`json:\"phase,omitempty\"`"+`
	// Replicas is how many copies run now.
	// +optional
	Replicas int32 `+"`json:\"replicas,omitempty\"`"+`
	// LastRun is when it last ran.
	// +optional
	LastRun *metav1.Time `+"`json:\"lastRun,omitempty\"`"+`
	// Conditions describe its state.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `+"`json:\"conditions,omitempty\"`"+`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`+"`.status.phase`"+`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`+"`.metadata.creationTimestamp`"+`
`, name)
	if storage {
		b.WriteString("// +kubebuilder:storageversion\n")
	}
	fmt.Fprintf(&b, `
// %[1]s is synthetic kind %[1]s.
type %[1]s struct {
	metav1.TypeMeta   `+"`json:\",inline\"`"+`
	metav1.ObjectMeta `+"`json:\"metadata,omitempty\"`"+`

	Spec   %[1]sSpec   `+"`json:\"spec,omitempty\"`"+`
	Status %[1]sStatus `+"`json:\"status,omitempty\"`"+`
}

// +kubebuilder:object:root=true

// %[1]sList is a list of %[1]s.
type %[1]sList struct {
	metav1.TypeMeta `+"`json:\",inline\"`"+`
	metav1.ListMeta `+"`json:\"metadata,omitempty\"`"+`
	Items           []%[1]s `+"`json:\"items\"`"+`
}
`, name)
	return b.String()
}
