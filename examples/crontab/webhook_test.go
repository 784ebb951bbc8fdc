package crontab_test

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The seed documents' ConversionReview request (comments removed) and the
// objects of their answer.
const seedRequest = `{
  "apiVersion": "%s",
  "kind": "ConversionReview",
  "request": {
    "uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
    "desiredAPIVersion": "example.com/v1",
    "objects": [
      {
        "kind": "CronTab",
        "apiVersion": "example.com/v1beta1",
        "metadata": {
          "creationTimestamp": "2019-09-04T14:03:02Z",
          "name": "local-crontab",
          "namespace": "default",
          "resourceVersion": "143",
          "uid": "3415a7fc-162b-4300-b5da-fd6083580d66"
        },
        "hostPort": "localhost:1234"
      },
      {
        "kind": "CronTab",
        "apiVersion": "example.com/v1beta1",
        "metadata": {
          "creationTimestamp": "2019-09-03T13:02:01Z",
          "name": "remote-crontab",
          "resourceVersion": "12893",
          "uid": "359a83ec-b575-460d-b553-d859cedde8a0"
        },
        "hostPort": "example.com:2345"
      }
    ]
  }
}`

const seedResponse = `{
  "apiVersion": "%s",
  "kind": "ConversionReview",
  "response": {
    "uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
    "result": {
      "status": "Success"
    },
    "convertedObjects": [
      {
        "kind": "CronTab",
        "apiVersion": "example.com/v1",
        "metadata": {
          "creationTimestamp": "2019-09-04T14:03:02Z",
          "name": "local-crontab",
          "namespace": "default",
          "resourceVersion": "143",
          "uid": "3415a7fc-162b-4300-b5da-fd6083580d66"
        },
        "host": "localhost",
        "port": "1234"
      },
      {
        "kind": "CronTab",
        "apiVersion": "example.com/v1",
        "metadata": {
          "creationTimestamp": "2019-09-03T13:02:01Z",
          "name": "remote-crontab",
          "resourceVersion": "12893",
          "uid": "359a83ec-b575-460d-b553-d859cedde8a0"
        },
        "host": "example.com",
        "port": "2345"
      }
    ]
  }
}`

// TestGeneratedWebhookAnswersTheSeedReviews builds the generated webhook
// main, runs it over TLS, and posts the seed documents' v1 and v1beta1
// ConversionReviews: the answers are the seed's, in the version asked.
func TestGeneratedWebhookAnswersTheSeedReviews(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "webhook")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/webhook").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/webhook: %v\n%s", err, out)
	}
	pool := writeServingCert(t, dir)

	cmd := exec.Command(bin, "--cert-dir", dir, "--bind-address", "127.0.0.1", "--port", "0",
		"--metrics-bind-address", "0", "--health-probe-bind-address", "0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			t.Errorf("interrupting the webhook: %v", err)
			// Kill it, or Wait below would wait for ever; a process that
			// is already gone is what Wait reports.
			if err := cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
				t.Errorf("killing the webhook: %v", err)
			}
		}
		if err := cmd.Wait(); err != nil {
			t.Errorf("the webhook did not exit cleanly: %v", err)
		}
	})
	addr := waitForAddr(t, stderr)

	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}
	for _, version := range []string{"apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"} {
		resp, err := client.Post("https://"+addr+"/convert", "application/json", strings.NewReader(strings.Replace(seedRequest, "%s", version, 1)))
		if err != nil {
			t.Fatal(err)
		}
		body := readBody(t, resp)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("%s: %d %s %s", version, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
		var got, want any
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(strings.Replace(seedResponse, "%s", version, 1)), &want); err != nil {
			t.Fatalf("the seed response: %v", err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: answer differs from the seed's:\n got %s\nwant %s", version, body, strings.Replace(seedResponse, "%s", version, 1))
		}
	}

	// An unparseable hostPort fails the review with the seed's message.
	bad := strings.Replace(strings.Replace(seedRequest, "%s", "apiextensions.k8s.io/v1", 1), "example.com:2345", "example.com", 1)
	resp, err := client.Post("https://"+addr+"/convert", "application/json", strings.NewReader(bad))
	if err != nil {
		t.Fatal(err)
	}
	body := readBody(t, resp)
	var failed struct {
		Response struct {
			UID    string `json:"uid"`
			Result struct{ Status, Message string }
		}
	}
	if err := json.Unmarshal(body, &failed); err != nil {
		t.Fatalf("unparseable hostPort: %v: %s", err, body)
	}
	if failed.Response.Result.Status != "Failed" ||
		failed.Response.Result.Message != "converting object 1 (remote-crontab) to example.com/v1: hostPort could not be parsed into a separate host and port" {
		t.Errorf("unparseable hostPort: %s", body)
	}
}

// readBody reads and closes resp's body.
func readBody(t testing.TB, resp *http.Response) []byte {
	t.Helper()
	body, err := io.ReadAll(resp.Body)
	if err = errors.Join(err, resp.Body.Close()); err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	return body
}

// waitForAddr reads the webhook's JSON logs until it says where it serves.
func waitForAddr(t testing.TB, stderr io.Reader) string {
	t.Helper()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			var line struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "serving the conversion webhook" {
				found <- line.Addr
			}
		}
	}()
	select {
	case addr := <-found:
		return addr
	case <-time.After(30 * time.Second):
		t.Fatal("the webhook did not start serving")
		return ""
	}
}

// writeServingCert writes a CA-signed certificate for 127.0.0.1 as tls.crt
// and tls.key in dir and returns a pool trusting the CA.
func writeServingCert(t testing.TB, dir string) *x509.CertPool {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"}, IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "webhook"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		KeyUsage: x509.KeyUsageDigitalSignature, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(key)
	write := func(name, typ string, b []byte) {
		var buf bytes.Buffer
		if err := pem.Encode(&buf, &pem.Block{Type: typ, Bytes: b}); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("tls.crt", "CERTIFICATE", der)
	write("tls.key", "EC PRIVATE KEY", keyDER)
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	return pool
}
