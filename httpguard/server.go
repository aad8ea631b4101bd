package httpguard

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Timeouts of NewServer: a client that sends its request slowly is cut
// off; a stream, once started, is not (its writes have their own deadline,
// FrameWriteTimeout, for a client that stops reading).
const (
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = 30 * time.Second // the whole request, body included
	IdleTimeout       = 60 * time.Second
	FrameWriteTimeout = 30 * time.Second
	MaxHeaderBytes    = 64 << 10
)

// NewServer is an http.Server for h with those timeouts. There is no
// WriteTimeout: a run streams for as long as it lasts.
func NewServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
	}
}

// ShutdownTimeout bounds how long Serve waits for the requests going on
// once it is told to stop.
const ShutdownTimeout = 5 * time.Second

// Serve listens on addr and serves h (with NewServer's timeouts) until
// SIGINT or SIGTERM, then shuts down: the requests' contexts are cancelled,
// so streams end, and Serve returns once they have (at most
// ShutdownTimeout). ready is called with the address listened on, once
// the server accepts connections. The commands' main loop.
func Serve(addr string, h http.Handler, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := NewServer(h)
	srv.BaseContext = func(net.Listener) context.Context { return ctx }
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	ready(ln.Addr())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		stop()
		<-done
		return err
	}
	<-done
	return nil
}
