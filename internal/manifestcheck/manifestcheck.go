// Package manifestcheck holds the checks tests put the manifests crdforge
// generates through: every object decoded strictly into its typed
// k8s.io/api struct (an unknown or misplaced field fails, as the API
// server's field validation would refuse it), and every pod spec held to
// the Pod Security Standard "restricted" by pod-security-admission's own
// policy package, the code the API server's admission runs.
package manifestcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	psaapi "k8s.io/pod-security-admission/api"
	psapolicy "k8s.io/pod-security-admission/policy"
	"sigs.k8s.io/yaml"
)

// Object is one decoded manifest: its apiVersion and kind, and the typed
// struct, nil for a kind of which no Go type is at hand (cert-manager's).
type Object struct {
	APIVersion, Kind string
	Typed            any
}

// typed makes the empty struct of each built-in kind crdforge writes.
var typed = map[string]func() any{
	"apps/v1 Deployment":                               func() any { return new(appsv1.Deployment) },
	"v1 Service":                                       func() any { return new(corev1.Service) },
	"v1 ServiceAccount":                                func() any { return new(corev1.ServiceAccount) },
	"v1 Secret":                                        func() any { return new(corev1.Secret) },
	"v1 ConfigMap":                                     func() any { return new(corev1.ConfigMap) },
	"v1 Namespace":                                     func() any { return new(corev1.Namespace) },
	"policy/v1 PodDisruptionBudget":                    func() any { return new(policyv1.PodDisruptionBudget) },
	"autoscaling/v2 HorizontalPodAutoscaler":           func() any { return new(autoscalingv2.HorizontalPodAutoscaler) },
	"rbac.authorization.k8s.io/v1 ClusterRole":         func() any { return new(rbacv1.ClusterRole) },
	"rbac.authorization.k8s.io/v1 ClusterRoleBinding":  func() any { return new(rbacv1.ClusterRoleBinding) },
	"rbac.authorization.k8s.io/v1 Role":                func() any { return new(rbacv1.Role) },
	"rbac.authorization.k8s.io/v1 RoleBinding":         func() any { return new(rbacv1.RoleBinding) },
	"coordination.k8s.io/v1 Lease":                     func() any { return new(coordinationv1.Lease) },
	"networking.k8s.io/v1 NetworkPolicy":               func() any { return new(networkingv1.NetworkPolicy) },
	"apiextensions.k8s.io/v1 CustomResourceDefinition": func() any { return new(apiextensionsv1.CustomResourceDefinition) },
	"admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy": func() any {
		return new(admissionregistrationv1.ValidatingAdmissionPolicy)
	},
	"admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBinding": func() any {
		return new(admissionregistrationv1.ValidatingAdmissionPolicyBinding)
	},
}

// untyped are the kinds decoded only as far as apiVersion and kind: their
// Go types are in no module of crdforge's.
var untyped = map[string]bool{"cert-manager.io/v1 Issuer": true, "cert-manager.io/v1 Certificate": true}

// separator splits a YAML stream into documents.
var separator = regexp.MustCompile(`(?m)^---\s*$`)

// Decode decodes every document of stream strictly; an unknown kind, an
// unknown field or a wrong type is an error naming the document.
func Decode(stream []byte) ([]Object, error) {
	var out []Object
	for i, doc := range separator.Split(string(stream), -1) {
		j, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		if bytes.Equal(bytes.TrimSpace(j), []byte("null")) {
			continue // comments only
		}
		obj, err := decodeOne(j)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w\n%s", i, err, doc)
		}
		out = append(out, obj)
	}
	return out, nil
}

func decodeOne(j []byte) (Object, error) {
	var o Object
	var head struct{ APIVersion, Kind string }
	if err := json.Unmarshal(j, &head); err != nil {
		return o, err
	}
	o.APIVersion, o.Kind = head.APIVersion, head.Kind
	key := head.APIVersion + " " + head.Kind
	if untyped[key] {
		return o, nil
	}
	newTyped, ok := typed[key]
	if !ok {
		return o, fmt.Errorf("no Go type for %s", key)
	}
	o.Typed = newTyped()
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.DisallowUnknownFields()
	return o, dec.Decode(o.Typed)
}

// Restricted says why the pod template tmpl would not be admitted in a
// namespace enforcing the Pod Security Standard "restricted" at its latest
// version; nil when it would.
func Restricted(tmpl *corev1.PodTemplateSpec) error {
	eval, err := psapolicy.NewEvaluator(psapolicy.DefaultChecks(), nil)
	if err != nil {
		return err
	}
	lv := psaapi.LevelVersion{Level: psaapi.LevelRestricted, Version: psaapi.LatestVersion()}
	res := psapolicy.AggregateCheckResults(eval.EvaluatePod(lv, &tmpl.ObjectMeta, &tmpl.Spec))
	if !res.Allowed {
		return fmt.Errorf("violates PodSecurity %q: %s", lv.String(), res.ForbiddenDetail())
	}
	return nil
}
