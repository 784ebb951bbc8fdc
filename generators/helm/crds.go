package helm

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/generators/deprecation"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
)

// crdsDir is where the CRDs' templates go in the chart: templates, which
// Helm renders, installs and upgrades, unlike the chart's crds/.
var crdsDir = path.Join("templates", "crds")

// ResourcePolicy is the annotation by which helm uninstall (and an
// upgrade that drops the object) leaves an object in place: a CRD deleted
// takes every object stored in it along.
const ResourcePolicy = "helm.sh/resource-policy"

// What the CRDs are printed with where their Helm expressions go: the
// crd generator prints CRD objects only, so the objects carry these, and
// the printed lines are then rewritten (conversionExpressions).
const (
	namespaceMark = "crdforge-helm-release-namespace"
	serviceMark   = "crdforge-helm-release-service"
	injectCAMark  = "crdforge-helm-inject-ca"
	caBundleMark  = "crdforge-helm-ca-bundle"
)

// crdTemplates returns the templates of the CRDs the crd generator writes
// (without the descriptions its markers omit), then those of the
// deprecated fields' admission policies, into dir.
func crdTemplates(m *model.Model, c chart, dir string, diags *diag.List) []output.File {
	var files []output.File
	for _, obj := range (crd.Generator{}).CRDs(m, diags, false) {
		content, err := crdTemplate(obj, c)
		if err == nil {
			content, err = gated(content)
		}
		if err != nil {
			diags.Errorf(firstKind(m), "the Helm template of CRD %s: %v", obj.Name, err)
			continue
		}
		files = append(files, output.File{Path: filepath.Join(dir, crd.FileName(obj)), Content: content})
	}
	for _, f := range (deprecation.Generator{Dir: dir}).Generate(m, diags) {
		content, err := gated(literal(f.Content))
		if err != nil {
			diags.Errorf(firstKind(m), "the Helm template of %s: %v", f.Path, err)
			continue
		}
		f.Content = content
		files = append(files, f)
	}
	return files
}

// crdsEnabled is the condition of every template under templates/crds:
// crds.enabled false leaves the CRDs (and their policies) to another
// release or to kubectl, as kubebuilder's chart does. A values.yaml
// without the key installs them.
const crdsEnabled = `{{- if dig "crds" "enabled" true .Values.AsMap }}`

// gated renders b, a template of templates/crds, only with crds.enabled.
// The condition goes after the generated-file header, which must stay the
// file's first line for crdforge to know the file its own.
func gated(b []byte) ([]byte, error) {
	header, rest, ok := bytes.Cut(b, []byte("\n"))
	if !ok || !bytes.HasPrefix(header, []byte("# ")) {
		return nil, fmt.Errorf("no header line to put the crds.enabled condition after")
	}
	var out bytes.Buffer
	for _, part := range [][]byte{header, []byte("\n" + crdsEnabled + "\n"), rest, []byte("{{- end }}\n")} {
		out.Write(part)
	}
	return out.Bytes(), nil
}

// crdTemplate prints obj as a template: kept on uninstall, and, when it
// converts through the Service the chart names (c.ownsService), naming
// that Service's namespace and name and carrying the CA.
func crdTemplate(obj *apiextensionsv1.CustomResourceDefinition, c chart) ([]byte, error) {
	obj = obj.DeepCopy()
	if obj.Annotations == nil {
		obj.Annotations = map[string]string{}
	}
	obj.Annotations[ResourcePolicy] = "keep"
	conv := obj.Spec.Conversion
	hook := conv != nil && conv.Webhook != nil && conv.Webhook.ClientConfig != nil && conv.Webhook.ClientConfig.Service != nil &&
		c.ownsService(conv.Webhook.ClientConfig.Service)
	if hook {
		// cert-manager's annotation, or the CA, as values.yaml says.
		delete(obj.Annotations, crd.InjectCAAnnotation)
		obj.Annotations[injectCAMark] = "true"
		cc := conv.Webhook.ClientConfig
		cc.Service.Namespace, cc.Service.Name = namespaceMark, serviceMark
		cc.CABundle = []byte(caBundleMark)
	}
	b, err := crd.Marshal(obj)
	if err != nil {
		return nil, err
	}
	b, err = replaceLine(literal(b), ResourcePolicy+": keep", []string{
		`{{- if dig "crds" "keep" true .Values.AsMap }}`, ResourcePolicy + ": keep", "{{- end }}"})
	if err == nil && hook {
		return conversionExpressions(b, c)
	}
	return b, err
}

// conversionExpressions puts the Helm expressions of the conversion's
// Service and CA where crdTemplate's marks were printed: the chart's
// _helpers.tpl defines service, certificate, certManager and caBundle.
func conversionExpressions(b []byte, c chart) ([]byte, error) {
	var err error
	b, err = replaceOnce(b, namespaceMark, c.Namespace)
	if err == nil {
		b, err = replaceOnce(b, serviceMark, fmt.Sprintf(`{{ include "%s.service" . }}`, c.Name))
	}
	if err == nil {
		b, err = replaceLine(b, injectCAMark+": ", []string{
			fmt.Sprintf(`{{- if include "%s.certManager" . }}`, c.Name),
			fmt.Sprintf(`%s: %s/{{ include "%s.certificate" . }}`, crd.InjectCAAnnotation, c.Namespace, c.Name),
			"{{- end }}",
		})
	}
	if err == nil {
		b, err = replaceLine(b, "caBundle: "+base64.StdEncoding.EncodeToString([]byte(caBundleMark)), []string{
			fmt.Sprintf(`{{- with include "%s.caBundle" . }}`, c.Name),
			"caBundle: {{ . }}",
			"{{- end }}",
		})
	}
	return b, err
}

// replaceOnce replaces the one occurrence of mark; none or two mean the
// printing changed under crdTemplate, which must not go unnoticed.
func replaceOnce(b []byte, mark, with string) ([]byte, error) {
	if n := bytes.Count(b, []byte(mark)); n != 1 {
		return nil, fmt.Errorf("%q printed %d times, want once", mark, n)
	}
	return bytes.Replace(b, []byte(mark), []byte(with), 1), nil
}

// replaceLine replaces the one line whose text, indentation aside, starts
// with prefix, by lines at that line's indentation.
func replaceLine(b []byte, prefix string, lines []string) ([]byte, error) {
	in := strings.SplitAfter(string(b), "\n")
	found := -1
	for i, l := range in {
		if strings.HasPrefix(strings.TrimLeft(l, " "), prefix) {
			if found >= 0 {
				return nil, fmt.Errorf("%q printed twice, want once", prefix)
			}
			found = i
		}
	}
	if found < 0 {
		return nil, fmt.Errorf("%q not printed", prefix)
	}
	line := in[found]
	indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
	var out strings.Builder
	for i, l := range in {
		if i != found {
			out.WriteString(l)
			continue
		}
		for _, n := range lines {
			out.WriteString(indent + n + "\n")
		}
	}
	return []byte(out.String()), nil
}

// literal makes b, YAML printed by crdforge, a Helm template that renders
// to b: Helm would read a "{{" in a description or a CEL message as an
// action of its own.
func literal(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte("{{"), []byte(`{{ "{{" }}`))
}
