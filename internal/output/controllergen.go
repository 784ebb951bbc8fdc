package output

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"

	"sigs.k8s.io/yaml"
)

// controllerGenKinds are the kinds of the manifests controller-gen's rbac
// and webhook generators write, which crdforge writes in their place
// (generators/controllertools).
var controllerGenKinds = []string{"ClusterRole", "Role", "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"}

// IsControllerGenManifest reports whether content is an RBAC or admission
// webhook manifest as controller-gen's rbac and webhook generators print
// it. controller-gen marks these files with nothing, neither a comment nor
// an annotation; what tells them from a hand-written file is the printing
// itself: every document starts with "---", holds one of those kinds, and
// is exactly what controller-gen's printer (its objects as JSON, then
// sigs.k8s.io/yaml, keys sorted, no comments) makes of its own data. A file
// a person wrote or edited (a comment, another key order, other
// indentation, another kind) is not, and is refused.
func IsControllerGenManifest(content []byte) bool {
	if !bytes.HasPrefix(content, []byte("---\n")) {
		return false
	}
	for _, doc := range bytes.Split(content[len("---\n"):], []byte("\n---\n")) {
		if !controllerGenDocument(doc) {
			return false
		}
	}
	return true
}

// controllerGenDocument reports whether doc, one document without its
// "---" line, is controller-gen's printing of one of controllerGenKinds.
func controllerGenDocument(doc []byte) bool {
	if !bytes.HasSuffix(doc, []byte("\n")) {
		doc = append(doc, '\n') // the last document's newline went with the split
	}
	j, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return false
	}
	var obj map[string]any
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber() // as controller-gen's printer decodes
	if err := dec.Decode(&obj); err != nil {
		return false
	}
	if kind, _ := obj["kind"].(string); !slices.Contains(controllerGenKinds, kind) {
		return false
	}
	printed, err := yaml.Marshal(obj)
	return err == nil && bytes.Equal(printed, doc)
}

// kubebuilderRoleScaffold is the config/rbac/role.yaml that `kubebuilder
// init` (v4) scaffolds as a placeholder for controller-gen's, which its
// Makefile's first make manifests overwrites: its project's name aside,
// byte for byte. crdforge, writing it in controller-gen's place, may too.
var kubebuilderRoleScaffold = regexp.MustCompile(`\AapiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  labels:
    app.kubernetes.io/name: [a-z0-9-]+
    app.kubernetes.io/managed-by: kustomize
  name: manager-role
rules:
- apiGroups: \[""\]
  resources: \["pods"\]
  verbs: \["get", "list", "watch"\]
\z`)

// IsKubebuilderRoleScaffold reports whether content is kubebuilder's
// placeholder role.yaml, untouched.
func IsKubebuilderRoleScaffold(content []byte) bool {
	return kubebuilderRoleScaffold.Match(content)
}
