package deploy

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/crdforge/crdforge/generators/model"
)

// DropNote completes the warning that the deploy generator writes nothing,
// the project having a deployment of its own where it would write (package
// generators, dropScaffold): which Service the CRDs convert through, and,
// where that is still crdforge's default Service or Certificate, which the
// project's own deployment does not serve, the markers that name the
// project's own (help), if any.
func (Generator) DropNote(m *model.Model) (note, help string) {
	w := m.Webhook
	if w == nil {
		return "", ""
	}
	var args model.WebhookArgs
	cert := false
	var pkgs []string // where the markers go: every kind converts as one of its versions' packages says
	for _, k := range w.Kinds {
		d := k.Conversion.Defaulted
		args = model.WebhookArgs{ServiceName: args.ServiceName || d.ServiceName, Namespace: args.Namespace || d.Namespace, Port: args.Port || d.Port}
		cert = cert || k.Conversion.DefaultCertificate
		if d != (model.WebhookArgs{}) || k.Conversion.DefaultCertificate {
			pkgs = append(pkgs, relDir(m.Dir, k.Hub.Package.GoFiles[0]))
		}
	}
	slices.Sort(pkgs)
	pkgs = slices.Compact(pkgs)

	svc := fmt.Sprintf("Service %s/%s (port %s, path %s)", w.Namespace, w.Service, portList(w.Ports), w.Kinds[0].Conversion.Service.Path)
	note = "the CRDs convert through " + svc
	if ps := m.ProjectService; ps != nil && ps.Name == w.Service {
		note = "the CRDs convert through your " + svc + ", from " + shownPath(m.Dir, ps.Path)
	}
	var markers []string
	if names := args.Names(); names != nil {
		note += ", with crdforge's default " + strings.Join(names, " and ") + ", which nothing deploys now"
		for i, n := range names {
			names[i] = n + "=<" + n + ">"
		}
		markers = append(markers, "`+crdforge:webhook:"+strings.Join(names, ",")+"`")
	}
	if cert {
		note += ", and their inject-ca-from names crdforge's default Certificate " + w.Kinds[0].Conversion.Certificate
		markers = append(markers, "`+crdforge:certmanager:injectCA=true,certificate=<namespace>/<name>` (or injectCA=false if your kustomization injects the CA)")
	}
	if markers == nil {
		return note, ""
	}
	return note, "add " + strings.Join(markers, " and ") + " to the package comment of " + strings.Join(pkgs, ", ")
}

func portList(ports []model.Port) string {
	out := make([]string, len(ports))
	for i, p := range ports {
		out[i] = fmt.Sprint(p.Port)
	}
	return strings.Join(out, ", ")
}

// relDir is the directory of file, as shownPath shows it.
func relDir(dir, file string) string {
	return shownPath(dir, filepath.Dir(file))
}

// shownPath is p relative to dir when it lies below it, slash-separated, as
// diagnostics show files.
func shownPath(dir, p string) string {
	if r, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return p
}
