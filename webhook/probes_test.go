package webhook_test

import (
	"net/http"
	"testing"

	"github.com/crdforge/crdforge/webhook/internal/testkit"
)

// The webhook answers its probes, and so becomes ready, when the main
// module that builds it runs Go 1.21's ServeMux: a module whose go
// directive is 1.21, which this module's allows, or any module with
// GODEBUG=httpmuxgo121=1. startServer waits for /readyz.
func TestProbesAnswerOnGo121sServeMux(t *testing.T) {
	pki := testkit.NewPKI(t)
	srv := startServer(t, pki, "GODEBUG=httpmuxgo121=1")
	resp, err := http.Post("http://"+srv.health+"/readyz", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close() // an error's short body
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /readyz: %d, want 405", resp.StatusCode)
	}
}
