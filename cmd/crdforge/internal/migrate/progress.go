package migrate

import (
	"fmt"
	"strings"
	"time"
)

// progress reports progress; final is the last report of a run.
func (m *migration) progress(final bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.progressLocked(final)
}

// progressLocked draws the bar (terminal), at most every 100ms, or prints
// a line every progressEvery objects, and always at the end. The total is
// the first page's estimate until more objects than that were listed.
func (m *migration) progressLocked(final bool) {
	w := m.opts.Progress
	if w == nil {
		return
	}
	total := int(m.total.Load())
	if m.res.total > total {
		total = m.res.total
	}
	if m.opts.Terminal {
		if !final && time.Since(m.lastOut) < 100*time.Millisecond {
			return
		}
		m.lastOut = time.Now()
		fmt.Fprintf(w, "\r%s", progressBar(m.done, total, m.res.failed, 30))
		if final {
			fmt.Fprintln(w)
		}
		return
	}
	if final || m.done%m.opts.progressEvery == 0 {
		if final && m.done%m.opts.progressEvery == 0 && m.done != 0 {
			return // already said
		}
		verb := "rewrote"
		if m.opts.DryRun {
			verb = "checked (dry run)"
		}
		fmt.Fprintf(w, "%s %d/%d", verb, m.done, total)
		if m.res.failed > 0 {
			fmt.Fprintf(w, " (%d failed)", m.res.failed)
		}
		fmt.Fprintln(w)
	}
}

// progressBar is a progress bar of width cells for done of total.
func progressBar(done, total, failed, width int) string {
	frac := 1.0
	if total > 0 {
		frac = float64(done) / float64(total)
	}
	if frac > 1 {
		frac = 1
	}
	n := int(frac * float64(width))
	bar := strings.Repeat("=", n)
	if n < width {
		bar += ">" + strings.Repeat(" ", width-n-1)
	}
	s := fmt.Sprintf("[%s] %d/%d %3.0f%%", bar, done, total, frac*100)
	if failed > 0 {
		s += fmt.Sprintf(" (%d failed)", failed)
	}
	return s
}
