package migrate

import "testing"

func TestProgressBar(t *testing.T) {
	for _, c := range []struct {
		done, total, failed int
		want                string
	}{
		{0, 10, 0, "[>         ] 0/10   0%"},
		{5, 10, 0, "[=====>    ] 5/10  50%"},
		{10, 10, 1, "[==========] 10/10 100% (1 failed)"},
		{3, 0, 0, "[==========] 3/0 100%"},
	} {
		if got := progressBar(c.done, c.total, c.failed, 10); got != c.want {
			t.Errorf("progressBar(%d, %d, %d) = %q, want %q", c.done, c.total, c.failed, got, c.want)
		}
	}
}
