package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/crdforge/crdforge/generators/deploy"
)

// buildContextMarkers are the files that make a directory a Docker build
// context: go.mod, the module root the generated Dockerfile builds from,
// and a Dockerfile of the user's.
var buildContextMarkers = []string{"go.mod", "Dockerfile"}

// keysOutOfBuild refuses to write private keys into outDir when it lies in
// a Docker build context with no ignore file: every docker build of that
// context would send ca.key and tls.key to the builder, and `COPY . .`
// would put them in the build stage. The ignore files that count are the
// context's .dockerignore and the one crdforge generate writes beside the
// webhook's Dockerfile (Dockerfile.dockerignore), which lets in only go
// build's inputs.
func keysOutOfBuild(dir, outDir, webhookMain string) error {
	ctx, marker, err := buildContext(outDir)
	if err != nil || ctx == "" {
		return err
	}
	ours := deploy.Generator{Main: webhookMain}.DockerIgnore()
	if !filepath.IsAbs(ours) {
		ours = filepath.Join(dir, ours)
	}
	for _, ignore := range []string{filepath.Join(ctx, ".dockerignore"), ours} {
		if _, err := os.Stat(ignore); err == nil {
			return nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return fmt.Errorf("crdforge certs: %s is in the Docker build context %s (it holds %s), which has no .dockerignore: "+
		"the private keys ca.key and tls.key would go to every docker build of it; run crdforge generate, which writes %s, "+
		"add a .dockerignore to %s that leaves %s out, or write the certificates elsewhere with --out",
		shownPath(dir, outDir), shownPath(dir, ctx), marker, shownPath(dir, ours), shownPath(dir, ctx), shownPath(dir, outDir))
}

// buildContext is the nearest directory at or above outDir that holds one
// of buildContextMarkers, and that marker; empty when there is none.
func buildContext(outDir string) (ctx, marker string, err error) {
	for d := filepath.Clean(outDir); ; d = filepath.Dir(d) {
		for _, m := range buildContextMarkers {
			if _, err := os.Stat(filepath.Join(d, m)); err == nil {
				return d, m, nil
			} else if !errors.Is(err, fs.ErrNotExist) {
				return "", "", err
			}
		}
		if filepath.Dir(d) == d {
			return "", "", nil
		}
	}
}

// shownPath is p relative to dir when it lies below it, else p.
func shownPath(dir, p string) string {
	if r, err := filepath.Rel(dir, p); err == nil && filepath.IsLocal(r) {
		return r
	}
	if filepath.Clean(dir) == filepath.Clean(p) {
		return "."
	}
	return p
}
