// Command demo is `make demo`'s live part: it starts a real control plane
// (etcd and kube-apiserver from bin/k8s, through controller-runtime's
// envtest), runs examples/crontab's generated conversion webhook with
// certificates from `crdforge certs`, installs the generated CRD pointed at
// it, and plays the seed documents' scenario with kubectl: a CronTab created
// through v1beta1 with hostPort localhost:1234 reads through v1 as host
// localhost and port "1234", and one whose hostPort cannot be parsed is
// refused with the webhook's message.
//
// Everything it starts is stopped when it ends, fails or is interrupted
// (Ctrl-C): the webhook is killed and the control plane stopped.
//
// Run it from the repository root: go run ./e2e/cmd/demo [-crdforge bin/crdforge]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/crdforge/crdforge/e2e"
)

const seed = `apiVersion: example.com/v1beta1
kind: CronTab
metadata:
  name: local-crontab
  namespace: default
hostPort: "localhost:1234"
spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
`

const hostPortError = "hostPort could not be parsed into a separate host and port"

func main() {
	crdforge := flag.String("crdforge", "", "the crdforge binary (default: build ./cmd/crdforge into a temporary directory)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, *crdforge)
	stop()
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintln(os.Stderr, "demo: interrupted; everything it started is stopped")
		} else {
			fmt.Fprintf(os.Stderr, "demo: FAILED: %v\n", err)
		}
		os.Exit(1)
	}
	fmt.Println("==> demo passed; everything it started is stopped")
}

func step(format string, args ...any) { fmt.Printf("==> "+format+"\n", args...) }

func run(ctx context.Context, crdforge string) (err error) {
	root, err := e2e.RepoRoot()
	if err != nil {
		return err
	}
	assets, err := e2e.AssetsDir(root)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "crdforge-demo-")
	if err != nil {
		return err
	}
	defer func() {
		if rerr := os.RemoveAll(tmp); rerr != nil {
			fmt.Fprintf(os.Stderr, "demo: removing %s: %v\n", tmp, rerr)
		}
	}()

	if crdforge == "" {
		step("building crdforge")
		if crdforge, err = e2e.BuildCrdforge(ctx, root, tmp); err != nil {
			return err
		}
	} else if crdforge, err = filepath.Abs(crdforge); err != nil {
		return err
	}

	step("starting etcd and kube-apiserver from %s (envtest)", assets)
	start := time.Now()
	cluster, err := e2e.StartCluster(assets, tmp)
	if err != nil {
		return err
	}
	defer func() {
		step("stopping kube-apiserver and etcd")
		if serr := cluster.Stop(); serr != nil {
			fmt.Fprintf(os.Stderr, "demo: stopping the control plane: %v\n", serr)
		}
	}()
	step("control plane up in %s at %s; kubeconfig %s", time.Since(start).Round(time.Millisecond), cluster.Config.Host, cluster.Kubeconfig)
	if err := ctx.Err(); err != nil {
		return err
	}

	logPath := filepath.Join(tmp, "webhook.log")
	logf, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := logf.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("closing the webhook log: %w", cerr))
		}
	}()
	ex, err := e2e.SetUpExample(ctx, cluster, root, crdforge, "crontab", tmp, logf, step)
	if err != nil {
		return err
	}
	defer func() {
		step("stopping the webhook")
		if serr := ex.Stop(); serr != nil {
			err = errors.Join(err, fmt.Errorf("stopping the webhook: %w", serr))
		}
		if err != nil {
			if b, rerr := os.ReadFile(logPath); rerr == nil {
				fmt.Fprintf(os.Stderr, "the webhook's log:\n%s", b)
			}
		}
	}()
	step("waiting until the API server converts through the webhook")
	probe := ex.Obj("v1", "default", "probe", map[string]any{"host": "probe", "port": "1"})
	if err := ex.WaitConversion(ctx, cluster, probe); err != nil {
		return err
	}
	return scenario(ctx, cluster, ex)
}

// scenario is the seed documents' scenario, with kubectl.
func scenario(ctx context.Context, c *e2e.Cluster, ex *e2e.Example) error {
	kubectl := func(stdin string, args ...string) (string, error) {
		fmt.Printf("$ kubectl %s\n", strings.Join(args, " "))
		var in []byte
		if stdin != "" {
			in = []byte(stdin)
		}
		out, stderr, err := c.Kubectl(ctx, in, args...)
		fmt.Print(out)
		if err == nil && stderr != "" {
			fmt.Print(stderr)
		}
		return out, err
	}

	step("creating local-crontab through v1beta1:\n%s", seed)
	if _, err := kubectl(seed, "create", "-f", "-"); err != nil {
		return err
	}
	step("local-crontab through v1beta1, as written")
	if _, err := kubectl("", "get", ex.KubectlResource("v1beta1"), "local-crontab", "-n", "default", "-o", "yaml"); err != nil {
		return err
	}
	step("local-crontab through v1: hostPort is split into host and port")
	if _, err := kubectl("", "get", ex.KubectlResource("v1"), "local-crontab", "-n", "default", "-o", "yaml"); err != nil {
		return err
	}
	out, err := kubectl("", "get", ex.KubectlResource("v1"), "local-crontab", "-n", "default",
		"-o", `jsonpath=host={.host} port={.port}{"\n"}`)
	if err != nil {
		return err
	}
	if strings.TrimSpace(out) != "host=localhost port=1234" {
		return fmt.Errorf("local-crontab at v1: %q, want host=localhost port=1234", out)
	}

	bad := strings.NewReplacer("localhost:1234", "localhost", "local-crontab", "bad-crontab").Replace(seed)
	step("creating bad-crontab, whose hostPort cannot be parsed:\n%s", bad)
	_, err = kubectl(bad, "create", "-f", "-")
	if err == nil {
		return errors.New("the API server accepted bad-crontab")
	}
	fmt.Println(err)
	if !strings.Contains(err.Error(), hostPortError) {
		return fmt.Errorf("the API server's error does not carry the webhook's message %q", hostPortError)
	}
	step("refused, with the webhook's message: %q", hostPortError)
	return nil
}
