package migrate

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	clienttesting "k8s.io/client-go/testing"
)

var crontabs = schema.GroupResource{Group: group, Resource: "crontabs"}

// dialErr is what client-go returns when the connection fails with errno.
func dialErr(op string, errno syscall.Errno) error {
	return &url.Error{Op: "Put", URL: "https://127.0.0.1:6443/x", Err: &net.OpError{Op: op, Net: "tcp", Err: os.NewSyscallError(op, errno)}}
}

func TestTransient(t *testing.T) {
	for _, c := range []struct {
		name  string
		err   error
		want  bool
		after time.Duration
	}{
		{"429 with Retry-After", apierrors.NewTooManyRequests("slow down", 3), true, 3 * time.Second},
		{"429 without", apierrors.NewTooManyRequestsError("slow down"), true, 0},
		{"503", apierrors.NewServiceUnavailable("restarting"), true, 0},
		{"500: the conversion webhook unreachable", apierrors.NewInternalError(errors.New("conversion webhook for example.com/v1 failed: connection refused")), true, 0},
		{"504", apierrors.NewTimeoutError("took too long", 2), true, 2 * time.Second},
		{"a 502 from a proxy", apierrors.NewGenericServerResponse(http.StatusBadGateway, "PUT", crontabs, "x", "bad gateway", 0, true), true, 0},
		{"connection refused", dialErr("connect", syscall.ECONNREFUSED), true, 0},
		{"connection reset", dialErr("read", syscall.ECONNRESET), true, 0},
		{"EOF", &url.Error{Op: "Get", URL: "https://x", Err: io.EOF}, true, 0},
		{"client timeout", &url.Error{Op: "Get", URL: "https://x", Err: timeoutErr{}}, true, 0},
		{"conflict", apierrors.NewConflict(crontabs, "x", errors.New("changed")), false, 0},
		{"not found", apierrors.NewNotFound(crontabs, "x"), false, 0},
		{"forbidden", apierrors.NewForbidden(crontabs, "x", errors.New("no")), false, 0},
		{"410 expired", apierrors.NewResourceExpired("expired"), false, 0},
		{"invalid", apierrors.NewBadRequest("no"), false, 0},
		{"cancelled", context.Canceled, false, 0},
		{"anything else", errors.New("boom"), false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, after := transient(c.err); got != c.want || after != c.after {
				t.Errorf("transient(%v) = %v, %s; want %v, %s", c.err, got, after, c.want, c.after)
			}
		})
	}
}

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

// TestTransientOnTheWire holds transient to the errors client-go really
// returns when the server drops the connection mid-request (a webhook or
// API server restarting) or is not there at all.
func TestTransientOnTheWire(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_ = conn.(*net.TCPConn).SetLinger(0) // a reset, not a clean close
			_ = conn.Close()
		}
	}))
	closed := srv.URL
	update := func(host string) error {
		dyn, err := dynamic.NewForConfig(&rest.Config{Host: host})
		if err != nil {
			t.Fatal(err)
		}
		u := obj("a", "one")
		_, err = dyn.Resource(crontabs.WithVersion("v1")).Namespace("a").Update(context.Background(), u, metav1.UpdateOptions{})
		return err
	}
	err := update(srv.URL)
	if ok, _ := transient(err); !ok {
		t.Errorf("connection dropped: transient(%v) = false", err)
	}
	srv.Close()
	err = update(closed)
	if ok, _ := transient(err); !ok {
		t.Errorf("nothing listening: transient(%v) = false", err)
	}
}

func TestBackoff(t *testing.T) {
	r := retrier{Attempts: 8, Base: 100 * time.Millisecond}
	for attempt, full := range map[int]time.Duration{1: 100 * time.Millisecond, 3: 400 * time.Millisecond, 12: maxBackoff, 100: maxBackoff} {
		for range 20 {
			if d := r.Backoff(attempt, 0); d < full/2 || d > full {
				t.Errorf("backoff(%d) = %s, want in [%s, %s]", attempt, d, full/2, full)
			}
		}
	}
	if d := r.Backoff(1, 5*time.Second); d != 5*time.Second {
		t.Errorf("backoff with Retry-After 5s = %s, want 5s", d)
	}
}

// TestRunRetriesTransientWrites fails each object's first writes the ways
// a throttled API server or a restarting webhook does; every object is
// written in the end, and storedVersions set.
func TestRunRetriesTransientWrites(t *testing.T) {
	f := newFixture(t, testCRD("v1", "v1"), obj("a", "one"), obj("a", "two"), obj("b", "three"))
	failures := []error{
		apierrors.NewTooManyRequestsError("throttled"),
		apierrors.NewServiceUnavailable("restarting"),
		apierrors.NewInternalError(errors.New("conversion webhook for example.com/v1 failed: connection refused")),
		dialErr("read", syscall.ECONNRESET),
	}
	var mu sync.Mutex
	tries := map[string]int{}
	f.dyn.PrependReactor("update", "crontabs", func(a clienttesting.Action) (bool, runtime.Object, error) {
		name := a.(clienttesting.UpdateAction).GetObject().(*unstructured.Unstructured).GetName()
		mu.Lock()
		defer mu.Unlock()
		tries[name]++
		if n := tries[name]; n <= len(failures) {
			return true, nil, failures[n-1]
		}
		return false, nil, nil
	})
	res, err := runWith(context.Background(), f.clients(), Options{CRD: "crontabs." + group, retryBase: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.rewritten != 3 || res.failed != 0 {
		t.Errorf("result %+v", res)
	}
	for name, n := range tries {
		if n != len(failures)+1 {
			t.Errorf("%s tried %d times, want %d", name, n, len(failures)+1)
		}
	}
	if got := f.stored(t); !slices.Equal(got, []string{"v1"}) {
		t.Errorf("storedVersions %v, want [v1]", got)
	}
}

// TestRunHonoursRetryAfter: a 429's Retry-After is waited for, however
// short the backoff would be.
func TestRunHonoursRetryAfter(t *testing.T) {
	f := newFixture(t, testCRD("v1", "v1"), obj("a", "one"))
	throttled := false
	f.dyn.PrependReactor("update", "crontabs", func(clienttesting.Action) (bool, runtime.Object, error) {
		if !throttled {
			throttled = true
			return true, nil, apierrors.NewTooManyRequests("throttled", 1)
		}
		return false, nil, nil
	})
	start := time.Now()
	res, err := runWith(context.Background(), f.clients(), Options{CRD: "crontabs." + group, retryBase: time.Millisecond})
	if err != nil || res.rewritten != 1 {
		t.Fatalf("%v, %+v", err, res)
	}
	if took := time.Since(start); took < time.Second {
		t.Errorf("the run took %s, less than the Retry-After of 1s", took)
	}
}

// TestRunGivesUpOnTransientErrors: retries are bounded, and the failure
// says so; storedVersions stay.
func TestRunGivesUpOnTransientErrors(t *testing.T) {
	f := newFixture(t, testCRD("v1", "v1"), obj("a", "one"))
	writes := 0
	f.dyn.PrependReactor("update", "crontabs", func(clienttesting.Action) (bool, runtime.Object, error) {
		writes++
		return true, nil, apierrors.NewServiceUnavailable("down for good")
	})
	res, err := runWith(context.Background(), f.clients(), Options{CRD: "crontabs." + group, retries: 3, retryBase: time.Millisecond})
	if !errors.Is(err, errFailed) || writes != 3 {
		t.Fatalf("error %v after %d writes, want errFailed after 3", err, writes)
	}
	if len(res.failures) != 1 || !strings.Contains(res.failures[0], "a/one: still failing after 3 attempts, giving up: down for good") {
		t.Errorf("failures %q", res.failures)
	}
	if got := f.stored(t); !slices.Equal(got, []string{"v1beta1", "v1"}) {
		t.Errorf("storedVersions %v, want unchanged", got)
	}
}

// listPages answers the run's list calls (after the webhook check's probe)
// with pages of objs, two to a page, and the failures given for the
// call numbers given; calls counts them all.
func listPages(f *fixture, objs []runtime.Object, fail map[int]error) *int {
	calls := 0
	f.dyn.PrependReactor("list", "crontabs", func(clienttesting.Action) (bool, runtime.Object, error) {
		calls++
		if calls == 1 {
			return false, nil, nil // the webhook check's probe
		}
		if err, ok := fail[calls]; ok {
			return true, nil, err
		}
		// The fake drops the continue token from the action: the pages
		// go in order of the calls that succeed.
		served := 0
		for n := 2; n < calls; n++ {
			if _, failed := fail[n]; !failed {
				served++
			}
		}
		list := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": group + "/v1", "kind": "CronTabList"}}
		for _, o := range objs[min(2*served, len(objs)):min(2*served+2, len(objs))] {
			list.Items = append(list.Items, *o.(*unstructured.Unstructured).DeepCopy())
		}
		if 2*served+2 < len(objs) {
			list.SetContinue("page-after-" + list.Items[len(list.Items)-1].GetName())
		}
		return true, list, nil
	})
	return &calls
}

// TestRunResumesAListAfterTransientErrors fails the second page twice: the
// listing asks for that page again and goes on from there, and every
// object is written once.
func TestRunResumesAListAfterTransientErrors(t *testing.T) {
	objs := []runtime.Object{obj("a", "one"), obj("a", "two"), obj("b", "three"), obj("b", "four"), obj("c", "five")}
	f := newFixture(t, testCRD("v1", "v1"), objs...)
	calls := listPages(f, objs, map[int]error{
		3: apierrors.NewServiceUnavailable("restarting"),
		4: dialErr("read", syscall.ECONNRESET),
	})
	res, err := runWith(context.Background(), f.clients(), Options{CRD: "crontabs." + group, ChunkSize: 2, retryBase: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	written := map[string]int{}
	for _, u := range f.updates {
		written[u.GetName()]++
	}
	if res.total != 5 || res.failed != 0 || len(written) != 5 {
		t.Fatalf("result %+v, writes %v", res, written)
	}
	for name, n := range written {
		if n != 1 {
			t.Errorf("%s written %d times", name, n)
		}
	}
	// probe, page 1, two failures, page 2 asked for again, page 3
	if *calls != 6 {
		t.Errorf("%d list calls, want 6", *calls)
	}
	if got := f.stored(t); !slices.Equal(got, []string{"v1"}) {
		t.Errorf("storedVersions %v", got)
	}
}

// TestRunGivesUpOnAFailingList: a page that keeps failing ends the run,
// saying how often it was asked for.
func TestRunGivesUpOnAFailingList(t *testing.T) {
	objs := []runtime.Object{obj("a", "one"), obj("a", "two"), obj("b", "three")}
	f := newFixture(t, testCRD("v1", "v1"), objs...)
	down := apierrors.NewServiceUnavailable("down for good")
	listPages(f, objs, map[int]error{3: down, 4: down, 5: down})
	_, err := runWith(context.Background(), f.clients(), Options{CRD: "crontabs." + group, ChunkSize: 2, retries: 3, retryBase: time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "still failing after 3 attempts, giving up: down for good") {
		t.Fatalf("error %v, want the list's retries exhausted", err)
	}
	if got := f.stored(t); !slices.Equal(got, []string{"v1beta1", "v1"}) {
		t.Errorf("storedVersions %v, want unchanged", got)
	}
}
