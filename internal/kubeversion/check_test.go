package kubeversion

import (
	"fmt"
	"go/token"
	"slices"
	"strings"
	"testing"

	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
)

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
spec:
  versions:
  - schema:
      openAPIV3Schema:
        x-kubernetes-validations:
        - rule: self.a < self.b
          messageExpression: "'a is ' + string(self.a)"
          reason: FieldValueInvalid
          optionalOldSelf: true
`

const deployment = `apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
      - lifecycle:
          preStop:
            sleep:
              seconds: 5
---
apiVersion: policy/v1
kind: PodDisruptionBudget
`

const policy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
`

// helmTemplate does not parse as YAML, as Helm templates do not.
const helmTemplate = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
{{- if .Values.x }}
  [broken: {{ .Values.y }
`

func warnings(t *testing.T, target string) []string {
	t.Helper()
	r, err := Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	files := []output.File{
		{Path: "config/crd/bases/crd.yaml", Content: []byte(crd)},
		{Path: "config/webhook/deployment.yaml", Content: []byte(deployment)},
		{Path: "config/webhook/policy.yaml", Content: []byte(policy)},
		{Path: "charts/x/templates/policy.yaml", Content: []byte(helmTemplate)},
		{Path: "cmd/webhook/main.go", Content: []byte("package main\nkind: x\n")},
	}
	diags := diag.New(token.NewFileSet())
	Check("/p", files, r, diags)
	var got []string
	for _, d := range diags.Items() {
		if d.Pos.Filename == "" {
			got = append(got, d.Msg)
			continue
		}
		got = append(got, fmt.Sprintf("%s:%d: %s", strings.TrimPrefix(d.Pos.Filename, "/p/"), d.Pos.Line, d.Msg))
	}
	return got
}

// Each feature a generated manifest uses is said once, at its first use,
// when the target is older than the release that has it; nothing is said
// of what the target has, of Helm templates or of Go files.
func TestCheckSaysWhatTheTargetLacks(t *testing.T) {
	for _, c := range []struct {
		target string
		want   []string
	}{
		{"1.24", []string{
			"you target Kubernetes 1.24, older than the oldest crdforge supports, 1.31",
			"config/crd/bases/crd.yaml:7: CEL validation rules (x-kubernetes-validations) needs Kubernetes 1.25; you target 1.24",
			"config/crd/bases/crd.yaml:9: a CEL rule's messageExpression needs Kubernetes 1.27; you target 1.24",
			"config/crd/bases/crd.yaml:10: a CEL rule's reason or fieldPath needs Kubernetes 1.28; you target 1.24",
			"config/crd/bases/crd.yaml:11: a CEL rule's optionalOldSelf needs Kubernetes 1.30; you target 1.24",
			"config/webhook/deployment.yaml:9: a preStop sleep action needs Kubernetes 1.30; you target 1.24",
			"config/webhook/policy.yaml:2: ValidatingAdmissionPolicy of admissionregistration.k8s.io/v1 needs Kubernetes 1.30; you target 1.24",
		}},
		{"v1.29.3", []string{
			"you target Kubernetes 1.29, older than the oldest crdforge supports, 1.31",
			"config/crd/bases/crd.yaml:11: a CEL rule's optionalOldSelf needs Kubernetes 1.30; you target 1.29",
			"config/webhook/deployment.yaml:9: a preStop sleep action needs Kubernetes 1.30; you target 1.29",
			"config/webhook/policy.yaml:2: ValidatingAdmissionPolicy of admissionregistration.k8s.io/v1 needs Kubernetes 1.30; you target 1.29",
		}},
		{"1.31", nil},
	} {
		t.Run(c.target, func(t *testing.T) {
			if got := warnings(t, c.target); !slices.Equal(got, c.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{{"1.31", 31}, {"v1.29", 29}, {"1.30.4", 30}, {" 1.37 ", 37}} {
		if r, err := Parse(c.in); err != nil || r.Minor != c.want {
			t.Errorf("Parse(%q) = %v, %v; want 1.%d", c.in, r, err, c.want)
		}
	}
	for _, in := range []string{"", "1", "2.1", "1.x", "1.31.4.1", "v1.-1"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) took it for a release", in)
		}
	}
}
