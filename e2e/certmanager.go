package e2e

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// CertManager is cert-manager's controller and CA injector running against
// the cluster: the two modes of the test tool tools/certmanager builds
// (make certmanager), as processes.
type CertManager struct {
	procs []*process
}

// CertManagerCRDs are cert-manager's CRD files, which certmanager.mk keeps
// in crds/ beside the binary bin links to: the same version as the build.
func CertManagerCRDs(bin string) ([]string, error) {
	resolved, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(filepath.Dir(resolved), "crds", "*.yaml"))
	if err == nil && len(files) == 0 {
		err = fmt.Errorf("no cert-manager CRDs beside %s (make certmanager copies them there)", resolved)
	}
	return files, err
}

// StartCertManager runs `bin controller` and `bin cainjector` with the
// cluster's admin kubeconfig and cert-manager's feature gates set to gates
// (as its --feature-gates flag: key=value,...); both log to logw.
func (c *Cluster) StartCertManager(bin, gates string, logw io.Writer) (*CertManager, error) {
	m := &CertManager{}
	for _, mode := range []string{"controller", "cainjector"} {
		p, err := startProcess(logw, bin, mode, "--kubeconfig", c.Kubeconfig, "--feature-gates", gates)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("certmanager %s: %w", mode, err), m.Stop())
		}
		m.procs = append(m.procs, p)
	}
	return m, nil
}

// Stop stops both processes; stopping them again does nothing.
func (m *CertManager) Stop() error {
	var errs []error
	for _, p := range m.procs {
		errs = append(errs, p.stop())
	}
	return errors.Join(errs...)
}

// process is a child process that dies with the test's, even on SIGKILL.
type process struct {
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// startProcess starts bin with args, output to logw, and gives it two
// seconds to fail on a flag or kubeconfig it rejects.
func startProcess(logw io.Writer, bin string, args ...string) (*process, error) {
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logw, logw
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	select {
	case <-p.done:
		return nil, fmt.Errorf("exited at start: %v (see its log)", p.err)
	case <-time.After(2 * time.Second):
	}
	return p, nil
}

// stop interrupts the process and waits for it, killing it after ten
// seconds.
func (p *process) stop() error {
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		return nil // exited meanwhile
	}
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		if err := p.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
			return fmt.Errorf("killing %s (pid %d): %w", p.cmd.Path, p.cmd.Process.Pid, err)
		}
		<-p.done
	}
	return nil
}

// MountSecret writes data into dir as the kubelet updates a Secret volume:
// the files in a new directory, the ..data link swapped to it in one
// rename, and each visible file a link through ..data. A reader sees the
// old files or the new ones, never a mix.
func MountSecret(dir string, data map[string][]byte) error {
	ts, err := os.MkdirTemp(dir, "..secret-")
	if err != nil {
		return err
	}
	for name, b := range data {
		if err := os.WriteFile(filepath.Join(ts, name), b, 0o600); err != nil {
			return err
		}
	}
	tmp := filepath.Join(dir, "..data_tmp")
	_ = os.Remove(tmp)
	if err := os.Symlink(filepath.Base(ts), tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, "..data")); err != nil {
		return err
	}
	for name := range data {
		link := filepath.Join(dir, name)
		if _, err := os.Lstat(link); err == nil {
			continue
		}
		if err := os.Symlink(filepath.Join("..data", name), link); err != nil {
			return err
		}
	}
	return nil
}
