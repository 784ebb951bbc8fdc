package migrate

import (
	"fmt"
	"io"
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
	if m.opts.Progress == nil || m.progressFailed {
		return
	}
	total := int(m.total.Load())
	if m.res.total > total {
		total = m.res.total
	}
	var out string
	if m.opts.Terminal {
		if !final && time.Since(m.lastOut) < 100*time.Millisecond {
			return
		}
		m.lastOut = time.Now()
		out = "\r" + progressBar(m.done, total, m.res.failed, 30)
		if final {
			out += "\n"
		}
	} else {
		if !final && m.done%m.opts.progressEvery != 0 {
			return
		}
		if final && m.done%m.opts.progressEvery == 0 && m.done != 0 {
			return // already said
		}
		verb := "rewrote"
		if m.opts.DryRun {
			verb = "checked (dry run)"
		}
		out = fmt.Sprintf("%s %d/%d", verb, m.done, total)
		if m.res.failed > 0 {
			out += fmt.Sprintf(" (%d failed)", m.res.failed)
		}
		out += "\n"
	}
	// Progress is only for watching: a run is worth finishing when no one
	// can watch it (a closed terminal, a broken pipe), and its Result says
	// what it did all the same. So a failed write ends the progress output,
	// not the run.
	if _, err := io.WriteString(m.opts.Progress, out); err != nil {
		m.progressFailed = true
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
