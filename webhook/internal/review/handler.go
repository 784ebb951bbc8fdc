// Package review answers the API server's ConversionReview requests over
// HTTP: it checks and reads the request, converts every object through a
// convert.Table, and writes the review back in the version received.
package review

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/crdforge/crdforge/webhook/internal/admit"
	"github.com/crdforge/crdforge/webhook/internal/convert"
	"github.com/crdforge/crdforge/webhook/internal/jsonscan"
	"github.com/crdforge/crdforge/webhook/internal/metrics"
)

// DefaultMaxRequestBytes bounds a ConversionReview's body unless configured
// otherwise: 3 MiB, the API server's own limit for a request's objects.
const DefaultMaxRequestBytes = 3 << 20

// Options configures a Handler.
type Options struct {
	// MaxRequestBytes bounds the request body; 0 means DefaultMaxRequestBytes.
	MaxRequestBytes int64
	// MaxInflightBytes bounds the request bytes converted at once (see
	// admit); 0 means MaxInflightBytesFor the Go runtime's memory limit.
	MaxInflightBytes int64
	// AdmitWait is how long a request waits for its bytes to fit in
	// MaxInflightBytes before it is answered 429; 0 means
	// DefaultAdmitWait.
	AdmitWait time.Duration
	// Metrics and Logger may be nil: a nil Metrics records nothing, a nil
	// Logger logs nothing.
	Metrics *metrics.Metrics
	Logger  *slog.Logger
}

// Handler answers ConversionReview requests, apiextensions.k8s.io/v1 and
// v1beta1, in the version received: every object is converted on its own,
// in request order, to the desired apiVersion. Any object's failure makes
// the whole response Failed, naming the object and the cause; a panic in
// conversion code is one such failure, never a crash.
type Handler struct {
	table  *convert.Table
	opts   Options
	budget *admit.Budget
	states statePool
}

// NewHandler returns the handler that converts through table.
func NewHandler(table *convert.Table, opts Options) *Handler {
	if opts.MaxRequestBytes <= 0 {
		opts.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if opts.MaxInflightBytes <= 0 {
		opts.MaxInflightBytes = MaxInflightBytesFor(debug.SetMemoryLimit(-1))
	}
	if opts.AdmitWait <= 0 {
		opts.AdmitWait = DefaultAdmitWait
	}
	return &Handler{table: table, opts: opts, budget: admit.NewBudget(opts.MaxInflightBytes)}
}

// MaxInflightBytes is the handler's in-flight budget, set or derived.
func (h *Handler) MaxInflightBytes() int64 { return h.budget.Size() }

// httpError is a request the handler refuses before converting anything.
type httpError struct {
	code   int
	reason string // metrics label
	msg    string
}

// ServeHTTP answers one ConversionReview, or refuses the request with an
// HTTP error.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	code := h.serve(w, r)
	h.opts.Metrics.ObserveRequest(code, time.Since(start))
}

func (h *Handler) serve(w http.ResponseWriter, r *http.Request) int {
	if herr := h.check(r); herr != nil {
		return h.refuse(w, herr)
	}
	share, herr := h.admit(r)
	if herr != nil {
		return h.refuse(w, herr)
	}
	defer func() { h.budget.Release(share) }()
	s := h.states.get()
	defer h.states.put(s)
	if herr := h.read(w, r, s); herr != nil {
		return h.refuse(w, herr)
	}
	share = h.keepRead(r, share, s.body.Len())
	in := &s.review
	s.out = h.respond(responseRoom(s.out, s.body.Len()), in.APIVersion, in.Request, &s.scratch)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(s.out); err != nil {
		// The caller most likely went away, such as an API server that
		// stopped waiting: no answer can reach it any more, but the log
		// says why it got none.
		h.log(slog.LevelWarn, "writing the ConversionReview response failed", "uid", in.Request.UID, "error", err)
	}
	return http.StatusOK
}

// refuse answers a refused request with its HTTP error.
func (h *Handler) refuse(w http.ResponseWriter, herr *httpError) int {
	h.opts.Metrics.Failure(herr.reason)
	switch herr.code {
	case http.StatusMethodNotAllowed:
		w.Header().Set("Allow", http.MethodPost)
	case http.StatusTooManyRequests:
		w.Header().Set("Retry-After", retryAfterSeconds)
	}
	http.Error(w, herr.msg, herr.code)
	h.log(slog.LevelWarn, "refused a request", "code", herr.code, "reason", herr.msg)
	return herr.code
}

// check refuses what the headers alone tell is no ConversionReview to
// convert, before the request waits for a share of the budget.
func (h *Handler) check(r *http.Request) *httpError {
	if r.Method != http.MethodPost {
		return &httpError{http.StatusMethodNotAllowed, "method_not_allowed", fmt.Sprintf("method %s not allowed: ConversionReviews are POSTed", r.Method)}
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" && !isJSON(ct) {
		return &httpError{http.StatusUnsupportedMediaType, "unsupported_media_type", fmt.Sprintf("unsupported Content-Type %q: want application/json", ct)}
	}
	if r.ContentLength > h.opts.MaxRequestBytes {
		return tooLarge(h.opts.MaxRequestBytes)
	}
	return nil
}

// read reads the review into s.
func (h *Handler) read(w http.ResponseWriter, r *http.Request, s *state) *httpError {
	if r.ContentLength > 0 {
		// Room for the body and for the read that finds its end, which
		// bytes.Buffer.ReadFrom makes only with MinRead bytes free.
		s.body.Grow(int(r.ContentLength) + bytes.MinRead)
	}
	if _, err := s.body.ReadFrom(http.MaxBytesReader(w, r.Body, h.opts.MaxRequestBytes)); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return tooLarge(h.opts.MaxRequestBytes)
		}
		return &httpError{http.StatusBadRequest, "bad_request", "reading the body: " + err.Error()}
	}
	// One pass validates the body and reads the envelope in place; every
	// object is then decoded once, into its own type.
	in := &s.review
	if err := in.Parse(s.body.Bytes()); err != nil {
		return &httpError{http.StatusBadRequest, "bad_request", "malformed ConversionReview: " + err.Error()}
	}
	switch {
	case in.APIVersion != reviewV1 && in.APIVersion != reviewV1beta1:
		return &httpError{http.StatusBadRequest, "bad_request", fmt.Sprintf("unsupported apiVersion %q: want %s or %s", in.APIVersion, reviewV1, reviewV1beta1)}
	case in.Kind != "ConversionReview":
		return &httpError{http.StatusBadRequest, "bad_request", fmt.Sprintf("unsupported kind %q: want ConversionReview", in.Kind)}
	case in.Request == nil:
		return &httpError{http.StatusBadRequest, "bad_request", "the ConversionReview has no request"}
	case in.Request.UID == "":
		return &httpError{http.StatusBadRequest, "bad_request", "the ConversionReview's request has no uid"}
	case in.Request.DesiredAPIVersion == "":
		return &httpError{http.StatusBadRequest, "bad_request", "the ConversionReview's request has no desiredAPIVersion"}
	}
	return nil
}

// isJSON reports whether a Content-Type other than plain
// "application/json", which the API server sends and which is taken without
// parsing (parsing allocates its parameters' map), is application/json with
// parameters or in other letter cases.
func isJSON(contentType string) bool {
	ct, _, err := mime.ParseMediaType(contentType)
	return err == nil && ct == "application/json"
}

func tooLarge(limit int64) *httpError {
	return &httpError{http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("request body larger than %d bytes", limit)}
}

// respond appends to out the response to req, a review of apiVersion:
// every object converted, independently, in order, straight into out.
func (h *Handler) respond(out []byte, apiVersion string, req *jsonscan.Request, scratch *convert.Scratch) []byte {
	out = appendResponseStart(out, apiVersion, req.UID)
	mark := len(out)
	out = appendSuccess(out, len(req.Objects))
	for i := range req.Objects {
		obj := &req.Objects[i]
		if i > 0 {
			out = append(out, ',')
		}
		var err error
		if out, err = h.convertOne(out, obj, req.DesiredAPIVersion, scratch); err != nil {
			msg := fmt.Sprintf("converting object %d%s to %s: %s", i, describe(obj.Raw), req.DesiredAPIVersion, h.failed(req, obj, err))
			// What was written of the success goes: the response is the
			// failure alone.
			return appendFailure(out[:mark], msg)
		}
	}
	h.opts.Metrics.ObjectsConverted(len(req.Objects))
	return appendSuccessEnd(out, len(req.Objects))
}

// panicked is what the response says of a conversion that panicked.
const panicked = "the conversion panicked; the webhook's log has the details"

// failed counts and logs obj's failed conversion, and returns what the
// response says of it: the error, or for a panic only that it panicked.
// A panic's text is no message written for the caller: it may hold a
// value of the object or a secret of the process, and the API server
// passes the response's message on to whoever made the request. The log
// has it, with the stack and what was being converted.
func (h *Handler) failed(req *jsonscan.Request, obj *jsonscan.Object, err error) string {
	reason := "conversion_error"
	var unknown *convert.UnknownError
	var p *panicError
	switch {
	case errors.As(err, &unknown):
		reason = "unknown_kind"
	case errors.As(err, &p):
		reason = "panic"
	}
	h.opts.Metrics.ObjectFailed()
	h.opts.Metrics.Failure(reason)
	if p != nil {
		h.log(slog.LevelError, "conversion panicked", "uid", req.UID, "object", objectName(obj.Raw), "kind", obj.Kind,
			"from", obj.APIVersion, "to", req.DesiredAPIVersion, "panic", fmt.Sprint(p.value), "stack", string(p.stack))
		return panicked
	}
	h.log(slog.LevelError, "conversion failed", "uid", req.UID, "object", objectName(obj.Raw), "kind", obj.Kind,
		"from", obj.APIVersion, "to", req.DesiredAPIVersion, "error", err.Error())
	return err.Error()
}

// panicError is a panic of conversion code, with the stack it was raised
// on.
type panicError struct {
	value any
	stack []byte
}

func (p *panicError) Error() string { return fmt.Sprintf("panic: %v", p.value) }

// convertOne appends one object converted, turning a panic into an error.
func (h *Handler) convertOne(out []byte, obj *jsonscan.Object, desired string, scratch *convert.Scratch) (res []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = out, &panicError{r, debug.Stack()}
		}
	}()
	return h.table.Append(out, obj, desired, scratch)
}

// describe names an object for messages, " (namespace/name)" with its
// leading space, or nothing for an object without a name.
func describe(obj json.RawMessage) string {
	if name := objectName(obj); name != "" {
		return " (" + name + ")"
	}
	return ""
}

// objectName is an object's namespace/name, its name alone when it has no
// namespace, or nothing.
func objectName(obj json.RawMessage) string {
	var o struct {
		Metadata struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
	}
	_ = json.Unmarshal(obj, &o)
	switch {
	case o.Metadata.Name == "" && o.Metadata.Namespace == "":
		return ""
	case o.Metadata.Namespace == "":
		return o.Metadata.Name
	}
	return o.Metadata.Namespace + "/" + o.Metadata.Name
}

func (h *Handler) log(level slog.Level, msg string, args ...any) {
	if h.opts.Logger != nil {
		h.opts.Logger.Log(context.Background(), level, msg, args...)
	}
}
