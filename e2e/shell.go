package e2e

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Shell is one shell session, as a reader's terminal: commands run in it
// one after another, so that `cd`, variables and background jobs carry over
// from one to the next, as they do for someone who types a page's commands.
type Shell struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string // stdout and stderr, interleaved as written, by line
	// mark starts the line the session prints after each command, with the
	// command's exit status; a random part keeps a command's own output
	// from passing for it.
	mark  string
	dir   string // where commands are written, to be sourced
	steps int
}

// StartShell starts bash in dir with env. The session and whatever it
// starts in the background run in a process group of their own, which
// Close ends.
func StartShell(dir string, env []string) (*Shell, error) {
	scripts, err := os.MkdirTemp("", "crdforge-shell-")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("bash", "--noprofile", "--norc")
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, errors.Join(err, os.RemoveAll(scripts))
	}
	cmd.Stdout, cmd.Stderr = w, w
	stdin, err := cmd.StdinPipe()
	if err == nil {
		err = cmd.Start()
	}
	_ = w.Close() // the session holds its own copy
	if err != nil {
		_ = r.Close()
		return nil, errors.Join(err, os.RemoveAll(scripts))
	}
	s := &Shell{cmd: cmd, stdin: stdin, lines: make(chan string, 256), mark: fmt.Sprintf("__crdforge_shell_%d_%d__", os.Getpid(), time.Now().UnixNano()), dir: scripts}
	go func() {
		defer close(s.lines)
		defer func() { _ = r.Close() }()
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
	}()
	return s, nil
}

// Run runs command in the session, its stdin the null device (the session
// reads its commands from its own), and returns what it printed, stdout and
// stderr together, and its exit status. An error means the session is
// gone or ctx ended first: then the session is of no further use.
func (s *Shell) Run(ctx context.Context, command string) (string, int, error) {
	s.steps++
	script := filepath.Join(s.dir, fmt.Sprintf("step-%d.sh", s.steps))
	if err := os.WriteFile(script, []byte(command+"\n"), 0o600); err != nil {
		return "", 0, err
	}
	// $? is the sourced command's status; the newline before the mark ends
	// a last line of output that has none.
	if _, err := fmt.Fprintf(s.stdin, ". %s </dev/null\nprintf '\\n%s %%d\\n' \"$?\"\n", shellQuote(script), s.mark); err != nil {
		return "", 0, fmt.Errorf("the shell session is gone: %w", err)
	}
	var out []string
	for {
		select {
		case <-ctx.Done():
			return strings.Join(out, "\n"), 0, fmt.Errorf("%q did not finish: %w", command, ctx.Err())
		case line, ok := <-s.lines:
			if !ok {
				return strings.Join(out, "\n"), 0, fmt.Errorf("the shell session ended during %q", command)
			}
			if rest, found := strings.CutPrefix(line, s.mark+" "); found {
				code, err := strconv.Atoi(rest)
				if n := len(out); n > 0 && out[n-1] == "" {
					out = out[:n-1] // the newline before the mark
				}
				return strings.Join(out, "\n"), code, err
			}
			out = append(out, line)
		}
	}
}

// Close ends the session's process group: the shell and what it left
// running in the background, which get a SIGTERM and ten seconds to stop
// before a SIGKILL.
func (s *Shell) Close() error {
	_ = s.stdin.Close()
	pgid := s.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	exited := make(chan struct{})
	go func() {
		_ = s.cmd.Wait() // a signal ends it: its status says nothing
		close(exited)
	}()
	deadline := time.Now().Add(10 * time.Second)
	waited := false
	select {
	case <-exited:
		waited = true
	case <-time.After(time.Until(deadline)):
	}
	// The group's ID stays taken while any of its processes lives, so
	// polling it reaches only what the session started: a webhook in its
	// shutdown grace period, say.
	for syscall.Kill(-pgid, 0) == nil && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if syscall.Kill(-pgid, 0) == nil {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
	if !waited {
		<-exited
	}
	return os.RemoveAll(s.dir)
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
