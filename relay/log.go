package relay

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"time"
)

// Logs. The relay logs with log/slog (Config.Logger): cmd/agui-relay as
// text or JSON lines with timestamps and a level (-log-format,
// -log-level); an embedding server's Config.Logf still takes the lines as
// text (logfHandler).

// logf logs a line at Info.
func (s *Server) logf(format string, args ...any) { s.log.Info(fmt.Sprintf(format, args...)) }

// logfHandler is a slog.Handler writing to a printf-style func: the
// message then its attributes as key=value.
type logfHandler struct {
	logf  func(string, ...any)
	attrs []slog.Attr
	group string
}

func (h logfHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h logfHandler) Handle(_ context.Context, r slog.Record) error {
	var b bytes.Buffer
	if r.Level != slog.LevelInfo {
		b.WriteString(r.Level.String())
		b.WriteByte(' ')
	}
	b.WriteString(r.Message)
	add := func(a slog.Attr) bool {
		b.WriteByte(' ')
		if h.group != "" {
			b.WriteString(h.group + ".")
		}
		b.WriteString(a.Key)
		b.WriteByte('=')
		v := a.Value.Resolve().String()
		if v == "" || bytes.ContainsAny([]byte(v), " =\"\n") {
			v = strconv.Quote(v)
		}
		b.WriteString(v)
		return true
	}
	for _, a := range h.attrs {
		add(a)
	}
	r.Attrs(add)
	h.logf("%s", b.String())
	return nil
}

func (h logfHandler) WithAttrs(as []slog.Attr) slog.Handler {
	h.attrs = append(append([]slog.Attr(nil), h.attrs...), as...)
	return h
}

func (h logfHandler) WithGroup(name string) slog.Handler {
	if h.group != "" {
		name = h.group + "." + name
	}
	h.group = name
	return h
}

// recorder keeps a response's status and size for the access log and the
// request metric; Unwrap lets http.ResponseController reach the
// connection (flushes, write deadlines).
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// observe wraps h: the request metric, and with AccessLog a line per
// request when it ends.
func (s *Server) observe(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &recorder{ResponseWriter: w}
		h.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		s.m.requests.WithLabelValues(r.Method, strconv.Itoa(rec.status)).Inc()
		if !s.cfg.AccessLog {
			return
		}
		attrs := []any{"method", r.Method, "path", cut(r.URL.Path, 200), "status", rec.status, "bytes", rec.bytes,
			"duration", time.Since(start).Round(time.Microsecond), "remote", r.RemoteAddr}
		if run := rec.Header().Get(runHeader); run != "" {
			attrs = append(attrs, "run", run)
		}
		if id := r.Header.Get("Last-Event-ID"); id != "" {
			attrs = append(attrs, "lastEventId", cut(id, 64))
		}
		s.log.Info("request", attrs...)
	})
}

// cut is s cut to n bytes (a client's path or id in a log line).
func cut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
