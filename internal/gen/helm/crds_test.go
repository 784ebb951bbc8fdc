package helm

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A "{{" crdforge prints (a description, a CEL message) reaches Helm as
// text, not as an action of Helm's.
func TestLiteralEscapesHelmActions(t *testing.T) {
	got := string(literal([]byte("description: use {{ .Name }} here\n")))
	if want := `description: use {{ "{{" }} .Name }} here` + "\n"; got != want {
		t.Errorf("literal = %q, want %q", got, want)
	}
}

// A CRD that converts through the webhook names the release's namespace
// and Service and carries the CA as values say; one that does not (None)
// is kept on uninstall and has no Helm expression at all.
func TestCRDTemplate(t *testing.T) {
	path, port := "/convert", int32(443)
	hook := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "gadgets.example.com", Annotations: map[string]string{"cert-manager.io/inject-ca-from": "model-ns/cert"}},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{Group: "example.com", Conversion: &apiextensionsv1.CustomResourceConversion{
			Strategy: apiextensionsv1.WebhookConverter,
			Webhook: &apiextensionsv1.WebhookConversion{ClientConfig: &apiextensionsv1.WebhookClientConfig{
				Service: &apiextensionsv1.ServiceReference{Namespace: "model-ns", Name: "model-svc", Path: &path, Port: &port}}},
		}},
	}
	b, err := crdTemplate(hook, "p")
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{
		"    helm.sh/resource-policy: keep\n",
		"    {{- if include \"p.certManager\" . }}\n    cert-manager.io/inject-ca-from: {{ .Release.Namespace }}/{{ include \"p.certificate\" . }}\n    {{- end }}\n",
		"        {{- with include \"p.caBundle\" . }}\n        caBundle: {{ . }}\n        {{- end }}\n",
		"          name: {{ include \"p.service\" . }}\n          namespace: {{ .Release.Namespace }}\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the template lacks\n%s\nin\n%s", want, got)
		}
	}
	if strings.Contains(got, "model-ns") || strings.Contains(got, "crdforge-helm") {
		t.Errorf("the model's namespace or a mark is left:\n%s", got)
	}

	none := hook.DeepCopy()
	none.Annotations = nil
	none.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{Strategy: apiextensionsv1.NoneConverter}
	if b, err = crdTemplate(none, "p"); err != nil {
		t.Fatal(err)
	}
	if got := string(b); !strings.Contains(got, "helm.sh/resource-policy: keep\n") || strings.Contains(got, "{{") {
		t.Errorf("a CRD converting with None:\n%s", got)
	}
}

// A mark printed other than once is an error, never a CRD whose
// conversion silently names the model's namespace.
func TestMarksMustBePrintedOnce(t *testing.T) {
	if _, err := replaceOnce([]byte("a\n"), "mark", "x"); err == nil {
		t.Error("a missing mark replaced without error")
	}
	if _, err := replaceLine([]byte("  mark: 1\n  mark: 2\n"), "mark: ", []string{"x"}); err == nil {
		t.Error("a mark printed twice replaced without error")
	}
}
