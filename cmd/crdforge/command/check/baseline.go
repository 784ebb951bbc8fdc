package check

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiext "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/generators/pipeline"
	"github.com/crdforge/crdforge/internal/diag"
)

// Side is one side of a comparison: its CRDs and, when they were generated
// from Go, where findings point.
type Side struct {
	CRDs    []*apiextensionsv1.CustomResourceDefinition
	Locator Locator
	// Diags holds the generation's diagnostics, warnings included; a side
	// whose diagnostics hold an error has no CRDs.
	Diags *diag.List
}

// Generate builds the CRDs of cfg's packages through crdforge's pipeline
// (one load, the model, the CRDs as the crd generator builds them, checked
// with the API server's validation) and a locator into the model's sources.
func Generate(cfg pipeline.Config) (*Side, error) { return generate(cfg, true) }

// generate is Generate; validate says whether the CRDs go through the API
// server's validation. The CRDs are compared as objects: printing them as
// generate does and reading the YAML back would cost as much as the rest
// of a side after validation.
func generate(cfg pipeline.Config, validate bool) (*Side, error) {
	// The crd generator's view of the load (its needs), though only its
	// objects are built, not its files.
	cfg.Only = []string{"crd"}
	// The conversions' field mapping says where each property's values
	// live across versions (fieldFindings, conversionFindings).
	cfg.Resolve.Conversions = true
	res, err := pipeline.Model(cfg)
	if err != nil {
		return nil, err
	}
	side := &Side{Diags: res.Diags}
	if res.Model == nil || res.Diags.HasErrors() {
		return side, nil
	}
	crds := crd.Generator{ValidationRecord: cfg.ValidationRecord}.CRDs(res.Model, res.Diags, validate)
	if res.Diags.HasErrors() {
		return side, nil
	}
	for _, c := range crds {
		c, err := asWritten(c)
		if err != nil {
			return nil, err
		}
		side.CRDs = append(side.CRDs, c)
	}
	side.Locator = NewModelLocator(res.Model)
	return side, nil
}

// asWritten is c as read back from the YAML generate writes: what the JSON
// form leaves out (an empty properties map, an empty list) is nil, so that
// it compares equal to the same CRD read from files or a cluster. YAML is
// read through JSON, so a JSON round trip is the same at a fraction of the
// cost.
func asWritten(c *apiextensionsv1.CustomResourceDefinition) (*apiextensionsv1.CustomResourceDefinition, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("CRD %s: %w", c.Name, err)
	}
	out := &apiextensionsv1.CustomResourceDefinition{}
	if err := json.Unmarshal(b, out); err != nil {
		return nil, fmt.Errorf("CRD %s: %w", c.Name, err)
	}
	return out, nil
}

// GitRevision generates the CRDs of cfg's packages as they are at rev, in a
// temporary copy of the repository's tree at rev (git archive: the
// repository and its worktrees stay untouched). cfg.Dir is the directory in
// the working tree; the same directory of the revision is generated.
// Positions name the revision's files as rev:path, path relative to
// cfg.Dir.
func GitRevision(ctx context.Context, cfg pipeline.Config, rev string) (*Side, error) {
	top, err := git(ctx, cfg.Dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("--against %s needs a git repository: %w", rev, err)
	}
	top = strings.TrimSpace(top)
	commit, err := git(ctx, cfg.Dir, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("--against %s: no such commit", rev)
	}
	commit = strings.TrimSpace(commit)
	dir, err := filepath.EvalSymlinks(cfg.Dir)
	if err != nil {
		return nil, err
	}
	realTop, err := filepath.EvalSymlinks(top)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(realTop, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("%s is not inside the repository %s", cfg.Dir, top)
	}

	tmp, err := os.MkdirTemp("", "crdforge-check-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(tmp) }() // a temporary copy: nothing to lose
	if err := extract(ctx, top, commit, tmp); err != nil {
		return nil, fmt.Errorf("--against %s: %w", rev, err)
	}
	base := filepath.Join(tmp, rel)
	if _, err := os.Stat(base); err != nil {
		return nil, fmt.Errorf("--against %s: %s does not exist at that revision", rev, rel)
	}
	bcfg := cfg
	bcfg.Dir = base
	// The baseline's CRDs are what was released: what the API server
	// thinks of them changes nothing about what the working tree breaks,
	// and a baseline it would refuse is still worth comparing against. So
	// they skip its validation, about a third of a side's work.
	side, err := generate(bcfg, false)
	if err != nil {
		return nil, fmt.Errorf("generating the CRDs at %s: %w", rev, err)
	}
	if side.Locator != nil {
		loc := side.Locator.(ModelLocator)
		loc.File = func(name string) string {
			if r, err := filepath.Rel(base, name); err == nil && !strings.HasPrefix(r, "..") {
				return rev + ":" + filepath.ToSlash(r)
			}
			return name
		}
		side.Locator = loc
	}
	return side, nil
}

// StartGitRevision starts GitRevision and returns what waits for its
// result. Most of a side's time is sequential (the go command listing
// packages, controller-tools' schema parser, the model), so the baseline
// generated while the working tree is uses the cores that one side leaves
// idle.
func StartGitRevision(ctx context.Context, cfg pipeline.Config, rev string) (wait func() (*Side, error)) {
	var side *Side
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		side, err = GitRevision(ctx, cfg, rev)
	}()
	return func() (*Side, error) {
		<-done
		return side, err
	}
}

// DefaultRevision is the baseline --against defaults to: where the current
// branch left the repository's default branch (the merge base of HEAD and
// origin/HEAD, else main, else master), so that a pull request is checked
// against what it changes; HEAD when there is no such branch.
func DefaultRevision(ctx context.Context, dir string) (string, error) {
	for _, branch := range []string{"origin/HEAD", "main", "master"} {
		if _, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", branch+"^{commit}"); err != nil {
			continue
		}
		mb, err := git(ctx, dir, "merge-base", "HEAD", branch)
		if err == nil {
			return strings.TrimSpace(mb), nil
		}
	}
	if _, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"); err != nil {
		return "", errors.New("no baseline: not in a git repository with commits; give --against, --against-files or --against-cluster")
	}
	return "HEAD", nil
}

func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
		}
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return string(out), nil
}

// extract writes the tree of commit into dir.
func extract(ctx context.Context, top, commit, dir string) error {
	cmd := exec.CommandContext(ctx, "git", "archive", "--format=tar", commit)
	cmd.Dir = top
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	terr := untar(out, dir)
	_, _ = io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git archive: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return terr
}

func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.Join(dir, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(name, filepath.Clean(dir)+string(filepath.Separator)) {
			return fmt.Errorf("git archive: entry %q outside the tree", h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(name, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode)&0o777)
			if err != nil {
				return err
			}
			if _, err := io.Copy(f, tr); err != nil {
				_ = f.Close() // the copy's error is the one to report
				return err
			}
			if err := f.Close(); err != nil {
				return err
			}
		case tar.TypeSymlink:
			if err := os.Symlink(h.Linkname, name); err != nil {
				return err
			}
		}
	}
}

// Files reads the baseline's CRDs from a YAML file or a directory of them.
func Files(path string) (*Side, error) {
	crds, err := ReadCRDs(path)
	if err != nil {
		return nil, err
	}
	return &Side{CRDs: crds}, nil
}

// Cluster reads, from the cluster cfg points at, the CRDs named as those of
// the working tree; with them their status.storedVersions, the versions
// objects are stored at. A CRD the cluster does not have is new.
func Cluster(ctx context.Context, cfg *rest.Config, names []string) (*Side, error) {
	cs, err := apiext.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	side := &Side{}
	for _, name := range names {
		c, err := cs.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading CRD %s from the cluster: %w", name, err)
		}
		side.CRDs = append(side.CRDs, c)
	}
	return side, nil
}
