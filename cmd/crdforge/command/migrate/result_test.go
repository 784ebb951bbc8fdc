package migrate

import (
	"errors"
	"fmt"
	"testing"
)

func TestSummary(t *testing.T) {
	const name = "crontabs." + group
	before := []string{"v1beta1", "v1"}
	for _, c := range []struct {
		name string
		res  Result
		want string
	}{
		{"done: storedVersions set",
			Result{crd: name, storage: "v1", total: 4, expected: 4, rewritten: 3, unchanged: 1, skipped: 1,
				storedBefore: before, storedAfter: []string{"v1"}, storedUpdated: true},
			name + ": rewrote 3 of 4 objects at v1 (1 already stored there), skipped 1 (deleted meanwhile), failed 0\n" +
				"status.storedVersions: [v1beta1 v1] -> [v1]\n"},
		{"dry run: what would be",
			Result{crd: name, storage: "v1", total: 2, expected: 2, rewritten: 2, storedBefore: before, storedAfter: before, dryRun: true},
			name + ": would rewrite 2 of 2 objects at v1 (0 already stored there), skipped 0 (deleted meanwhile), failed 0\n" +
				"status.storedVersions: [v1beta1 v1], would become [v1] (dry run: unchanged)\n"},
		{"failures listed, storedVersions unchanged",
			Result{crd: name, storage: "v1", total: 3, expected: 3, rewritten: 2, failed: 1, failures: []string{"a/bad: boom"},
				storedBefore: before, storedAfter: before},
			name + ": rewrote 2 of 3 objects at v1 (0 already stored there), skipped 0 (deleted meanwhile), failed 1\n" +
				"  failed: a/bad: boom\n" +
				"status.storedVersions: [v1beta1 v1] (unchanged)\n"},
		{"interrupted: the announced count, and how many were listed",
			Result{crd: name, storage: "v1", total: 4, expected: 10, rewritten: 2, storedBefore: before, storedAfter: before},
			name + ": rewrote 2 of 10 objects at v1 (0 already stored there), skipped 0 (deleted meanwhile), failed 0; 4 listed so far\n" +
				"status.storedVersions: [v1beta1 v1] (unchanged)\n"},
		{"dropped managedFields entries",
			Result{crd: name, storage: "v1", total: 2, expected: 2, rewritten: 2, managedDropped: 3,
				storedBefore: []string{"v1"}, storedAfter: []string{"v1"}},
			name + ": rewrote 2 of 2 objects at v1 (0 already stored there), skipped 0 (deleted meanwhile), failed 0; dropped 3 managedFields entries of unserved versions\n" +
				"status.storedVersions: [v1] (unchanged)\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.res.Summary(); got != c.want {
				t.Errorf("Summary:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

func TestResultCount(t *testing.T) {
	var r Result
	for _, o := range []outcome{written, unchanged, unchanged, skipped} {
		r.count(obj("ns", "ok"), o, 1, nil)
	}
	for i := range maxFailures + 2 {
		r.count(obj("ns", fmt.Sprint("bad", i)), failed, 0, errors.New("boom"))
	}
	if r.rewritten != 3 || r.unchanged != 2 || r.skipped != 1 || r.failed != maxFailures+2 || r.managedDropped != 4 {
		t.Errorf("counted %+v", r)
	}
	if len(r.failures) != maxFailures || r.failures[0] != "ns/bad0: boom" {
		t.Errorf("failures %q, want the first %d", r.failures, maxFailures)
	}
}
