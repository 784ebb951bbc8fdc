package deploy

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/output"
)

// withoutCertManager names the overlay of the webhook's kustomization for
// clusters without cert-manager: a sibling of Dir, <Dir>-without-cert-manager.
// kustomize refuses an overlay below the kustomization it includes (a
// cycle), and a sibling leaves config/webhook, and every
// `kubectl apply -k config/webhook`, as they were.
const withoutCertManager = "-without-cert-manager"

// overlayDir is the overlay's directory for the kustomization in dir.
func overlayDir(dir string) string {
	return filepath.Clean(dir) + withoutCertManager
}

// SplitImage splits an image reference into the name and the tag that a
// kustomization's images entry takes: "ghcr.io/me/hook:v1" into
// "ghcr.io/me/hook" and "v1"; an empty reference is app:latest. A digest
// ("name@sha256:...") stays in the name, with no tag.
func SplitImage(ref, app string) (name, tag string) {
	if ref == "" {
		return app, "latest"
	}
	if strings.Contains(ref, "@") {
		return ref, ""
	}
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		return ref[:i], ref[i+1:]
	}
	return ref, "latest"
}

// DockerIgnore is the Dockerfile's own ignore file, beside it: BuildKit
// reads <Dockerfile>.dockerignore in place of the context's .dockerignore,
// so crdforge keeps the build context to go build's inputs without taking
// over a .dockerignore of the user's.
func (g Generator) DockerIgnore() string {
	return filepath.Join(filepath.Dir(g.Main), "Dockerfile.dockerignore")
}

// build is what the Dockerfile template reads.
type build struct {
	// Dockerfile is its path and MainPkg the webhook's main package, both
	// from the module root, the build context.
	Dockerfile, MainPkg, Context string
	GoVersion                    string
	ImageName, ImageTag          string
	ImageRef                     string
}

// buildData places the Dockerfile beside the webhook's main and says how to
// build it from the module root, with the Go version the module declares.
func (g Generator) buildData(m *model.Model, data manifests) build {
	modDir, goVersion := "", ""
	for _, r := range m.Roots {
		if r.Module != nil && r.Module.Dir != "" {
			modDir, goVersion = r.Module.Dir, r.Module.GoVersion
			break
		}
	}
	mainDir := filepath.Dir(g.Main)
	if !filepath.IsAbs(mainDir) {
		mainDir = filepath.Join(m.Dir, mainDir)
	}
	rel := func(p string) string {
		if modDir == "" {
			return p
		}
		if r, err := filepath.Rel(modDir, p); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
		return p
	}
	b := build{Dockerfile: path.Join(rel(mainDir), "Dockerfile"), MainPkg: "./" + rel(mainDir), Context: ".",
		GoVersion: goVersionTag(goVersion), ImageName: data.ImageName, ImageTag: data.ImageTag}
	b.ImageRef = b.ImageName
	if b.ImageTag != "" {
		b.ImageRef += ":" + b.ImageTag
	}
	return b
}

// goVersionTag is the golang image tag for a go.mod go line: its major and
// minor version ("1.24" for "1.24.3"); the oldest the runtime supports when
// the module says nothing.
func goVersionTag(v string) string {
	if v == "" {
		return "1.24"
	}
	parts := strings.SplitN(v, ".", 3)
	if len(parts) >= 2 {
		return parts[0] + "." + parts[1]
	}
	return v
}

// injectedCRDs lists the names of the webhook's CRDs that carry
// cert-manager's inject-ca-from annotation.
func injectedCRDs(m *model.Model) []string {
	var out []string
	for _, k := range m.Webhook.Kinds {
		c := crd.Build(k)
		if _, ok := c.Annotations[crd.InjectCAAnnotation]; ok {
			out = append(out, c.Name)
		}
	}
	return out
}

// gitignore is the block crdforge keeps in the .gitignore of the directory
// it runs in: `go build ./cmd/webhook` there leaves the webhook's binary,
// named after its main's directory, beside go.mod. The rest of the file is
// the user's (output.File.Block).
func (g Generator) gitignore() output.File {
	bin := filepath.Base(filepath.Dir(g.Main))
	return output.File{Path: ".gitignore", Block: true, Content: []byte(output.BlockBegin +
		": what go build leaves here (crdforge keeps this block; edit outside it)\n/" + bin + "\n" + output.BlockEnd + "\n")}
}
