// Package logging is how the conversion webhook logs: the values of its
// --log-level and --log-format flags, and the slog logger they make.
package logging

import (
	"errors"
	"flag"
	"io"
	"log/slog"
	"strings"
)

// The formats a logger writes: JSON for log collectors, text for people.
const (
	JSON = "json"
	Text = "text"
)

// New returns a logger of level writing format, JSON or Text, to w.
func New(w io.Writer, level slog.Level, format string) *slog.Logger {
	ho := &slog.HandlerOptions{Level: level}
	if format == Text {
		return slog.New(slog.NewTextHandler(w, ho))
	}
	return slog.New(slog.NewJSONHandler(w, ho))
}

// LevelFlag is a flag.Value setting *l from debug, info, warn or error, in
// any case.
func LevelFlag(l *slog.Level) flag.Value { return levelFlag{l} }

// FormatFlag is a flag.Value setting *f to JSON or Text, in any case.
func FormatFlag(f *string) flag.Value { return formatFlag{f} }

type levelFlag struct{ l *slog.Level }

var levels = map[string]slog.Level{
	"debug": slog.LevelDebug, "info": slog.LevelInfo,
	"warn": slog.LevelWarn, "error": slog.LevelError,
}

// String is lower case, as the flag is set: flag.PrintDefaults shows it as
// the default. The flag package calls it on a zero levelFlag too.
func (f levelFlag) String() string {
	if f.l == nil {
		return ""
	}
	return strings.ToLower(f.l.String())
}

func (f levelFlag) Set(s string) error {
	l, ok := levels[strings.ToLower(s)]
	if !ok {
		return errors.New("must be debug, info, warn or error")
	}
	*f.l = l
	return nil
}

type formatFlag struct{ s *string }

func (f formatFlag) String() string {
	if f.s == nil {
		return ""
	}
	return *f.s
}

func (f formatFlag) Set(s string) error {
	s = strings.ToLower(s)
	if s != JSON && s != Text {
		return errors.New("must be json or text")
	}
	*f.s = s
	return nil
}
