package webhook

import (
	"flag"
	"io"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/crdforge/crdforge/webhook/internal/testkit"
)

// options parses args as a main would, logging to logs.
func options(t *testing.T, logs io.Writer, args ...string) *Options {
	t.Helper()
	fs := flag.NewFlagSet("webhook", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o := BindFlags(fs)
	o.logOutput = logs
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return o
}

var local = []string{"--insecure-http", "--bind-address=127.0.0.1", "--port=0",
	"--metrics-bind-address=0", "--health-probe-bind-address=0", "--shutdown-grace-period=0"}

func boxKind() Kind {
	return Kind{Group: testkit.BoxGroup, Kind: testkit.BoxKind, Hub: testkit.BoxHub, Versions: testkit.BoxVersions()}
}

func TestRunExitsWith2OnBadOptionsOrABadTable(t *testing.T) {
	if code := Run(options(t, io.Discard, "--port=-1"), boxKind()); code != 2 {
		t.Errorf("--port=-1: exit code %d, want 2", code)
	}
	var logs testkit.Logs
	broken := boxKind()
	broken.Hub = "v9"
	if code := Run(options(t, &logs, local...), broken); code != 2 {
		t.Errorf("a broken table: exit code %d, want 2", code)
	}
	if !logs.Contains("invalid conversion table") {
		t.Errorf("the broken table was not logged:\n%s", logs.String())
	}
}

// TestRunServesUntilSIGTERM runs the webhook as a generated main does,
// converts through it, and stops it the way the kubelet does.
func TestRunServesUntilSIGTERM(t *testing.T) {
	var logs testkit.Logs
	code := make(chan int, 1)
	go func() { code <- Run(options(t, &logs, local...), boxKind()) }()

	// Run logs this, over plain HTTP with a warning, once it listens, after
	// it has taken over SIGTERM.
	var addr string
	testkit.WaitUntil(t, "the webhook serves", 10*time.Second, func() bool {
		for _, line := range strings.Split(logs.String(), "\n") {
			if strings.Contains(line, `"msg":"serving the conversion webhook`) {
				_, rest, _ := strings.Cut(line, `"addr":"`)
				addr, _, _ = strings.Cut(rest, `"`)
				return true
			}
		}
		return false
	})
	body := testkit.ReviewJSON("apiextensions.k8s.io/v1", "u1", "test.io/v1", testkit.BoxJSON("v3", "a", `"host":"h","number":"1"`))
	resp, err := http.Post("http://"+addr+"/convert", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	out, err := testkit.ReadBody(resp)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(out), `"hostPort":"h:1"`) {
		t.Errorf("%d %s", resp.StatusCode, out)
	}
	// / is no conversion path: no 200 there tells a prober the webhook is.
	if resp, err := http.Post("http://"+addr+"/", "application/json", strings.NewReader(body)); err != nil {
		t.Fatal(err)
	} else if _, _ = testkit.ReadBody(resp); resp.StatusCode != http.StatusNotFound {
		t.Errorf("POST / answered %d, want 404", resp.StatusCode)
	}

	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("exit code %d after SIGTERM, want 0; logs:\n%s", c, logs.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return after SIGTERM")
	}
	if !logs.Contains("conversion webhook starting") || !logs.Contains(`"kinds":["Box.test.io (v1, v2, v3; hub v2)"]`) || !logs.Contains("shutdown complete") {
		t.Errorf("logs:\n%s", logs.String())
	}
}
