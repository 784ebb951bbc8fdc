package e2e

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// ControllerManagerControllers are the controllers the harness runs: the
// storage version migrator, which carries out StorageVersionMigrations, and
// the garbage collector, whose graph of every object the migrator walks (it
// refuses to start without it).
var ControllerManagerControllers = []string{"garbage-collector-controller", "storage-version-migrator-controller"}

// ControllerManager is a running kube-controller-manager.
type ControllerManager struct {
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// StartControllerManager runs kube-controller-manager (the binary at bin)
// against the cluster, with the cluster's admin kubeconfig (its user is in
// system:masters, so no service-account credentials or keys are needed:
// the controllers that would need them do not run), only
// ControllerManagerControllers, no leader election and no serving port.
// Its logs go to logw. The StorageVersionMigrator feature gate is on by
// default from Kubernetes 1.37, as are the client-go gates the migrator
// checks (InformerResourceVersion, InOrderInformers); on an older release
// the gates the migrator needs are turned on (controllerManagerArgs).
func (c *Cluster) StartControllerManager(bin string, logw io.Writer) (*ControllerManager, error) {
	controllers := ""
	for i, name := range ControllerManagerControllers {
		if i > 0 {
			controllers += ","
		}
		controllers += name
	}
	cmd := exec.Command(bin,
		"--kubeconfig", c.Kubeconfig,
		"--controllers", controllers,
		"--leader-elect=false",
		"--secure-port=0",
		"--use-service-account-credentials=false",
		"-v=2")
	cmd.Args = append(cmd.Args, controllerManagerArgs(c.Release)...)
	cmd.Stdout, cmd.Stderr = logw, logw
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	m := &ControllerManager{cmd: cmd, done: make(chan struct{})}
	go func() {
		m.err = cmd.Wait()
		close(m.done)
	}()
	// It has no port to probe; a flag or kubeconfig it rejects ends it at
	// once, so give it a moment to show that.
	select {
	case <-m.done:
		return nil, fmt.Errorf("kube-controller-manager exited at start: %v (see its log)", m.err)
	case <-time.After(2 * time.Second):
	}
	return m, nil
}

// Stop interrupts kube-controller-manager and waits for it, killing it
// after ten seconds.
func (m *ControllerManager) Stop() error {
	if m == nil {
		return nil
	}
	select {
	case <-m.done:
		return nil
	default:
	}
	if err := m.cmd.Process.Signal(os.Interrupt); err != nil {
		return nil // exited meanwhile
	}
	select {
	case <-m.done:
	case <-time.After(10 * time.Second):
		if err := m.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
			return fmt.Errorf("killing kube-controller-manager (pid %d): %w", m.cmd.Process.Pid, err)
		}
		<-m.done
	}
	return nil
}
