package testkit

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
)

// Logs collects log output for assertions; it outlives the test, unlike
// t.Log, so servers still shutting down may write to it.
type Logs struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *Logs) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything logged so far.
func (b *Logs) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Contains reports whether s was logged.
func (b *Logs) Contains(s string) bool { return strings.Contains(b.String(), s) }

// NewLogger returns a JSON logger of every level that writes to Logs.
func NewLogger() (*slog.Logger, *Logs) {
	b := &Logs{}
	return slog.New(slog.NewJSONHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug})), b
}
