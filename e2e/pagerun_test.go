package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// readPage reads page's blocks and what each asks of its reader (PagePlan).
func readPage(t *testing.T, page string) []PageStep {
	t.Helper()
	blocks, err := Blocks(page)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := PagePlan(blocks)
	if err != nil {
		t.Fatalf("%s: %v", page, err)
	}
	return plan
}

// shellPlan is the steps of page's ```sh blocks, each with the commands of
// its block that keep accepts, for a test that runs part of a page (one
// PagePlan would refuse for its other blocks); a block left with no command
// is dropped.
func shellPlan(t *testing.T, page string, keep func(b Block, command string) bool) []PageStep {
	t.Helper()
	blocks, err := Blocks(page)
	if err != nil {
		t.Fatal(err)
	}
	var plan []PageStep
	for _, b := range blocks {
		if b.Lang != "sh" {
			continue
		}
		commands, err := ShellSteps(b.Body)
		if err != nil {
			t.Fatalf("%s:%d: %v", filepath.Base(page), b.Line, err)
		}
		s := PageStep{Block: b}
		for _, c := range commands {
			if keep(b, c) {
				s.Commands = append(s.Commands, c)
			}
		}
		if len(s.Commands) > 0 {
			plan = append(plan, s)
		}
	}
	return plan
}

// followPage follows page, word for word, as PagePlan reads it, in the
// session sh: every ```sh block's commands in order, each of which must
// exit 0; each ```go block written, each ```diff block applied where the
// commands left the reader; each ```text block found in what the commands
// above it printed. Under CRDFORGE_FETCH it stops after the last command
// that downloads modules.
func followPage(t *testing.T, page string, plan []PageStep, sh *Shell) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	r := &pageRun{t: t, ctx: ctx, name: filepath.Base(page), sh: sh, lastFetch: lastFetch(plan)}
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

// pageShell is where a page's session runs.
type pageShell struct {
	// cluster is the control plane the page's kubectl talks to, through
	// KUBECONFIG; nil for none.
	cluster *Cluster
	// dir is the directory the session starts in; empty for a new one.
	dir string
	// path are directories put first on PATH (after `go install`'s).
	path []string
	// env are more variables, NAME=value.
	env []string
}

// startPageShell starts the session a reader of a page types in: `go
// install`'s binaries on PATH, then p.path, then kubectl (the assets' one
// first) talking to p.cluster. Cleanups end the session and everything it
// started and, on the suite's cluster, delete the CRDs that the modules it
// made generated, in case the page's own last steps did not run.
func startPageShell(t *testing.T, p pageShell) *Shell {
	t.Helper()
	work, bin := p.dir, t.TempDir()
	if work == "" {
		work = t.TempDir()
	}
	path := append([]string{bin}, p.path...)
	env := append(append(os.Environ(), p.env...), "GOBIN="+bin, GoFlags())
	if c := p.cluster; c != nil {
		if filepath.IsAbs(c.KubectlPath) {
			path = append(path, filepath.Dir(c.KubectlPath))
		}
		env = append(env, "KUBECONFIG="+c.Kubeconfig, "KUBECACHEDIR="+t.TempDir())
		if c == cluster {
			t.Cleanup(func() { deleteGeneratedCRDs(t, work) })
		}
	}
	path = append(path, os.Getenv("PATH"))
	env = append(env, "PATH="+strings.Join(path, string(os.PathListSeparator)))
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
