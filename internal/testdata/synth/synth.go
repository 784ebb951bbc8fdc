// Package synth writes synthetic multi-version API trees for benchmarks:
// N kinds, ten to a group, each in three versions (v1alpha1, v1beta1, v1)
// whose schemas differ, with the field types real operators use.
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
				src := kindSource(ver, name, vi == len(Versions)-1, vi)
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

// kindSource writes one kind. Later versions add fields and rename one, so
// that every kind needs a conversion webhook.
func kindSource(ver, name string, storage bool, level int) string {
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

// %[2]sSpec is the desired state of a %[2]s.
// +kubebuilder:validation:XValidation:rule="self.minReplicas <= self.replicas",message="minReplicas must not exceed replicas"
type %[2]sSpec struct {
	// Replicas is how many copies run.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=0
	Replicas int32 `+"`json:\"replicas\"`"+`
	// MinReplicas is the floor for Replicas.
	// +kubebuilder:default=0
	MinReplicas int32 `+"`json:\"minReplicas\"`"+`
	// Image is what runs.
	Image string `+"`json:\"image\"`"+`
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
	// Storage is the size of each copy's volume.
	// +optional
	Storage *resource.Quantity `+"`json:\"storage,omitempty\"`"+`
`, ver, name)
	if level >= 1 {
		fmt.Fprintf(&b, "\t// Schedule is when it runs, in cron format.\n\t// +optional\n\tSchedule string `json:\"schedule,omitempty\"`\n")
	}
	if level >= 2 {
		fmt.Fprintf(&b, "\t// Selector picks the pods that belong to it.\n\t// +optional\n\tSelector *metav1.LabelSelector `json:\"selector,omitempty\"`\n")
	} else {
		fmt.Fprintf(&b, "\t// PodSelector picks the pods that belong to it.\n\t// +optional\n\tPodSelector map[string]string `json:\"podSelector,omitempty\"`\n")
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
