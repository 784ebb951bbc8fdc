package e2e

import (
	"context"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// One control plane serves the whole suite: every example installs its own
// CRD (different groups), and runs its own webhook.
var (
	cluster   *Cluster
	repoRoot  string
	crdforge  string // the built crdforge binary
	skipWhy   string // set when the suite cannot run
	setupFail error
	assetsDir string // the envtest assets: kube-apiserver, etcd, kube-controller-manager
)

// The suite's tests share one control plane. Those that wait most (on the
// API server, a webhook's start, helm, their own control plane) and hold
// nothing another test touches call t.Parallel: go test runs them after
// the others, -parallel at a time (the Makefile's E2E_PARALLEL), so their
// waits overlap. The rest run one at a time, first, because they share
// something:
//   - the examples' CRDs, whose webhook each test points at its own, and
//     their stored versions, which each test leaves to the next:
//     crontabs.example.com (TestCronTab, TestMigrate, TestStatusWebhook,
//     which finds the objects TestMigrate moved to v1) and
//     cronjobs.batch.tutorial.kubebuilder.io (TestCronJob, TestManagedCerts);
//   - kube-controller-manager, which acts on the whole cluster: its
//     garbage collector reads every resource, its migrator takes every
//     StorageVersionMigration (TestVersionLife, TestMigrateClusterWebhookDown,
//     TestUpgradeMigratesStorage; TestMigrateAutoFallsBack needs none
//     running);
//   - the process: t.Chdir and t.Setenv (TestCheckAgainstCluster,
//     TestCheckObjectsAgainstCluster, TestGoFlagsPassOnTrimpath);
//   - time: TestManagedCerts and TestCertificateRenewal fail on any read
//     that a renewal interrupts, and are kept off a busy machine.
func TestMain(m *testing.M) {
	flag.Parse()
	code := run(m)
	removeScratchBase()
	os.Exit(code)
}

func run(m *testing.M) int {
	if testing.Short() {
		skipWhy = "-short: the end-to-end suite starts kube-apiserver and etcd and builds webhooks"
		return m.Run()
	}
	var err error
	if repoRoot, err = RepoRoot(); err != nil {
		setupFail = err
		return m.Run()
	}
	if err := ServeFromModuleCache(); err != nil {
		setupFail = err
		return m.Run()
	}
	if Fetching() {
		// Only the tests that download modules run their first steps; no
		// test needs the control plane.
		skipWhy = "CRDFORGE_FETCH: no control plane while the module cache fills"
		return m.Run()
	}
	assets, err := AssetsDir(repoRoot)
	assetsDir = assets
	if err != nil {
		if os.Getenv("CRDFORGE_E2E_REQUIRED") != "" {
			// make test builds the assets first: missing ones are a failure
			// there, not a reason to skip.
			setupFail = err
		} else {
			skipWhy = err.Error()
		}
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "crdforge-e2e-")
	if err != nil {
		setupFail = err
		return m.Run()
	}
	defer func() {
		if err := os.RemoveAll(dir); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: removing %s: %v\n", dir, err)
		}
	}()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	built := make(chan error, 1)
	go func() { // build crdforge while the control plane starts
		var err error
		crdforge, err = BuildCrdforge(ctx, repoRoot, dir)
		built <- err
	}()
	cluster, err = StartCluster(assets, dir)
	if berr := <-built; berr != nil && err == nil {
		err = berr
	}
	if err != nil {
		if serr := cluster.Stop(); serr != nil {
			err = errors.Join(err, fmt.Errorf("stopping the control plane: %w", serr))
		}
		cluster = nil
		setupFail = err
		return m.Run()
	}
	fmt.Fprintf(os.Stderr, "e2e: control plane (%s) up and crdforge built in %s; etcd %s\n",
		filepath.Base(assets), time.Since(start).Round(time.Millisecond), cluster.EtcdURL)
	defer func() {
		if err := cluster.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: stopping the control plane: %v\n", err)
		}
	}()
	return m.Run()
}

// serverIndependent skips t under CRDFORGE_E2E_SERVER_TESTS_ONLY, which make
// test-e2e-oldest sets: t never talks to an API server, so on the oldest
// release it would only do again what make test-e2e did.
func serverIndependent(t *testing.T) {
	t.Helper()
	if os.Getenv("CRDFORGE_E2E_SERVER_TESTS_ONLY") != "" {
		t.Skip("CRDFORGE_E2E_SERVER_TESTS_ONLY: the test talks to no API server")
	}
}

// needCluster skips or fails the test when the suite could not set up.
func needCluster(t *testing.T) {
	t.Helper()
	if skipWhy != "" {
		t.Skip(skipWhy)
	}
	if setupFail != nil {
		t.Fatalf("suite setup: %v", setupFail)
	}
}

// needTool is bin/<name> under root, which `make <name>` builds: the test
// skips without it, or fails when CRDFORGE_E2E_REQUIRED is set (make
// test-e2e builds it first).
func needTool(t *testing.T, root, name string) string {
	t.Helper()
	bin := filepath.Join(root, "bin", name)
	if !fileExists(bin) {
		why := bin + " missing (run `make " + name + "` at the repository root)"
		if os.Getenv("CRDFORGE_E2E_REQUIRED") != "" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	return bin
}

// setUpExample installs examples/<name> on the shared cluster with its
// webhook running, and waits until probe (an object at the storage version)
// converts to every served version.
func setUpExample(t *testing.T, name string, probe map[string]any) *Example {
	t.Helper()
	needCluster(t)
	ctx := context.Background()
	work := t.TempDir()
	logPath := filepath.Join(work, "webhook.log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	closeLog := func() {
		if err := logf.Close(); err != nil {
			t.Errorf("closing the webhook log: %v", err)
		}
	}
	start := time.Now()
	e, err := SetUpExample(ctx, cluster, repoRoot, crdforge, name, work, logf, t.Logf)
	if err != nil {
		closeLog()
		t.Fatalf("setting up %s: %v", name, err)
	}
	t.Cleanup(func() {
		if err := e.Stop(); err != nil {
			t.Errorf("stopping the %s webhook: %v", name, err)
		}
		closeLog()
		if t.Failed() {
			if b, err := os.ReadFile(logPath); err == nil {
				t.Logf("webhook log:\n%s", tail(string(b), 4000))
			}
		}
	})
	// crdforge certs also wrote a copy of the CRD with the CA as caBundle:
	// the same CA the installed CRD trusts.
	certCRD, err := LoadCRD(filepath.Join(work, "certs", filepath.Base(e.CRDFile)))
	if err != nil {
		t.Errorf("crdforge certs' CRD copy: %v", err)
	} else if got, _, _ := unstructured.NestedString(certCRD.Object, "spec", "conversion", "webhook", "clientConfig", "caBundle"); got != base64.StdEncoding.EncodeToString(e.CA) {
		t.Errorf("crdforge certs' CRD copy has caBundle %.40q..., want ca.crt", got)
	}
	if err := e.WaitConversion(ctx, cluster, e.Obj(e.Storage(), "default", "probe-"+name, probe)); err != nil {
		t.Fatalf("%s: conversion never worked: %v", name, err)
	}
	t.Logf("%s: set up in %s; versions served %v, storage %s", name, time.Since(start).Round(time.Millisecond), e.Served(), e.Storage())
	return e
}

// controllerManager is the kube-controller-manager binary for the storage
// version migrator: among the assets, else in bin/k8s, where `make
// envtest-kcm` builds it (setup-envtest's assets have none). Without one
// the test skips, and fails only where the assets are the ones make test
// builds itself, kube-controller-manager among them.
func controllerManager(tb testing.TB) string {
	tb.Helper()
	ours := filepath.Join(repoRoot, "bin", "k8s")
	for _, dir := range []string{assetsDir, ours} {
		if p := filepath.Join(dir, "kube-controller-manager"); fileExists(p) {
			return p
		}
	}
	why := "no kube-controller-manager in " + assetsDir + " nor " + ours + " (`make envtest-kcm` builds it)"
	if os.Getenv("CRDFORGE_E2E_REQUIRED") != "" && assetsDir == ours {
		tb.Fatal(why)
	}
	tb.Skip(why)
	return ""
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
