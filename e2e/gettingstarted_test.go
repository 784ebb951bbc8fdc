package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// fetches matches the commands that download modules: under CRDFORGE_FETCH
// the page is followed up to the last of them.
var fetches = regexp.MustCompile(`\bgo (mod (tidy|download)|get|install \S+@)`)

// TestGettingStarted follows docs/getting-started.md from an empty
// directory, word for word, as PagePlan reads it: every ```sh block's
// commands in one shell session, in order, each of which must exit 0; each
// ```go block written, each ```diff block applied where the commands left
// the reader; each ```text block found in what the commands above it
// printed. $CRDFORGE is this checkout; the page's kubectl, and crdforge's
// cluster commands, reach the suite's control plane through KUBECONFIG, and
// it reaches the page's webhook on loopback.
func TestGettingStarted(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds crdforge, a new module and its webhook")
	}
	if repoRoot == "" {
		t.Skip("no repository root")
	}
	page := filepath.Join(repoRoot, "docs", "getting-started.md")
	blocks, err := Blocks(page)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := PagePlan(blocks)
	if err != nil {
		t.Fatalf("%s: %v", page, err)
	}
	if !Fetching() {
		needCluster(t) // under CRDFORGE_FETCH the page stops before its cluster
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	r := &pageRun{t: t, ctx: ctx, name: filepath.Base(page), sh: startPageShell(t), lastFetch: lastFetch(plan)}
	for _, s := range plan {
		r.follow(s)
	}
	if want := countCommands(plan); r.ran != want {
		t.Errorf("%d of the page's %d commands ran", r.ran, want)
	}
}

// pageRun is a page being followed in one shell session.
type pageRun struct {
	t    *testing.T
	ctx  context.Context
	name string // the page's file name, for messages
	sh   *Shell
	out  string // what the last ```sh block's commands printed
	ran  int    // commands run so far
	// lastFetch is the last command that downloads modules, as its
	// ```sh block's line and its place in the block.
	lastFetch [2]int
}

// follow does what step s of the page asks: runs its commands, checks its
// output against the commands' above it, writes its file or applies its
// change.
func (r *pageRun) follow(s PageStep) {
	t := r.t
	t.Helper()
	at := fmt.Sprintf("%s:%d", r.name, s.Block.Line)
	switch s.Block.Lang {
	case "sh":
		r.out = ""
		for j, c := range s.Commands {
			start := time.Now()
			out, code, err := r.sh.Run(r.ctx, c)
			if err != nil || code != 0 {
				t.Fatalf("%s: %q: exit %d, %v\n%s", at, c, code, err, tail(out, 4000))
			}
			// The output, in the log, is what the page's ```text blocks are
			// taken from.
			t.Logf("%s: $ %s (%s)\n%s", at, firstLine(c), time.Since(start).Round(time.Millisecond), tail(out, 4000))
			r.out += out + "\n"
			r.ran++
			if r.lastFetch == [2]int{s.Block.Line, j} {
				StopIfFetching(t)
			}
		}
	case "text":
		if err := OutputShows(s.Block.Body, r.out); err != nil {
			t.Errorf("%s: the page shows output its commands do not print: %v\nthey printed:\n%s", at, err, tail(r.out, 4000))
		}
	case "go":
		p := filepath.Join(r.pwd(), filepath.FromSlash(s.File))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s.Content), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: wrote %s", at, s.File)
	case "diff":
		patch := filepath.Join(t.TempDir(), "change.diff")
		if err := os.WriteFile(patch, []byte(s.Block.Body), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.CommandContext(r.ctx, "git", "apply", "--verbose", patch)
		cmd.Dir = r.pwd()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: the change does not apply: %v\n%s", at, err, out)
		}
		t.Logf("%s: applied the change", at)
	}
}

// pwd is the directory the page's commands left the reader in.
func (r *pageRun) pwd() string {
	out, code, err := r.sh.Run(r.ctx, "pwd")
	if err != nil || code != 0 {
		r.t.Fatalf("pwd: exit %d, %v\n%s", code, err, out)
	}
	return strings.TrimSpace(out)
}

// startPageShell starts the session a reader of the page types in, in a new
// directory: crdforge's checkout as $CRDFORGE, `go install`'s binaries on
// PATH, kubectl (the assets' one first) talking to the suite's control
// plane. Cleanups end the session and everything it started, and delete
// the CRDs that the module it made generated, in case the page's own last
// steps did not run.
func startPageShell(t *testing.T) *Shell {
	t.Helper()
	work, bin := t.TempDir(), t.TempDir()
	path := bin
	env := append(os.Environ(), "CRDFORGE="+repoRoot, "GOBIN="+bin, "GOFLAGS=")
	if cluster != nil {
		if filepath.IsAbs(cluster.KubectlPath) {
			path += string(os.PathListSeparator) + filepath.Dir(cluster.KubectlPath)
		}
		env = append(env, "KUBECONFIG="+cluster.Kubeconfig, "KUBECACHEDIR="+t.TempDir())
		t.Cleanup(func() { deleteGeneratedCRDs(t, work) })
	}
	env = append(env, "PATH="+path+string(os.PathListSeparator)+os.Getenv("PATH"))
	sh, err := StartShell(work, env)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := sh.Close(); err != nil {
			t.Error(err)
		}
	})
	return sh
}

// deleteGeneratedCRDs deletes from the cluster the CRDs of the modules
// under work, as their config/crd/bases hold them.
func deleteGeneratedCRDs(t *testing.T, work string) {
	files, _ := filepath.Glob(filepath.Join(work, "*", "config", "crd", "bases", "*.yaml"))
	for _, f := range files {
		crd, err := LoadCRD(f)
		if err != nil {
			continue // kustomization.yaml
		}
		err = cluster.Dynamic.Resource(CRDResource).Delete(context.Background(), crd.GetName(), metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting %s: %v", crd.GetName(), err)
		}
	}
}

// lastFetch is the last command of plan that downloads modules, as its
// block's line and its place in the block; {0, 0} when none does.
func lastFetch(plan []PageStep) [2]int {
	var last [2]int
	for _, s := range plan {
		for j, c := range s.Commands {
			if fetches.MatchString(c) {
				last = [2]int{s.Block.Line, j}
			}
		}
	}
	return last
}

func countCommands(plan []PageStep) int {
	n := 0
	for _, s := range plan {
		n += len(s.Commands)
	}
	return n
}

func firstLine(s string) string {
	first, _, more := strings.Cut(s, "\n")
	if more {
		return first + " ..."
	}
	return first
}
