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
// the server accepts connections. SIGHUP is ignored. cmd/agui-demo's main
// loop; ServeDrain drains instead.
func Serve(addr string, h http.Handler, ready func(net.Addr)) error {
	return ServeDrain(addr, h, DrainOptions{Ready: ready, Timeout: ShutdownTimeout})
}

// DrainOptions configure ServeDrain.
type DrainOptions struct {
	// Ready is called with the address listened on, once the server
	// accepts connections.
	Ready func(net.Addr)
	// Drain, when set, is called once a signal came and the listener is
	// closed, with a context that ends at Timeout: it ends what the
	// handler's requests wait for (a stream's run), so that they send
	// their last words and return. The requests' contexts are not
	// cancelled until Timeout. Nil: they are cancelled at once.
	Drain func(ctx context.Context)
	// Timeout bounds the shutdown: past it the connections still open are
	// closed (0: ShutdownTimeout).
	Timeout time.Duration
	// Signals stop the server (nil: SIGINT and SIGTERM).
	Signals []os.Signal
	// Stopping, when set, is called at the signal, before the listener is
	// closed (e.g. to log it).
	Stopping func(os.Signal)
}

// ServeDrain listens on addr and serves h (with NewServer's timeouts)
// until one of opt.Signals, then drains: it stops accepting connections,
// calls opt.Drain, waits for the requests going on to end, and closes
// what is still open at opt.Timeout. SIGHUP is ignored (a closed terminal
// or a log rotator's signal does not stop the server).
func ServeDrain(addr string, h http.Handler, opt DrainOptions) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return ServeListener(ln, h, opt)
}

// ServeListener is ServeDrain on a listener it takes over.
func ServeListener(ln net.Listener, h http.Handler, opt DrainOptions) error {
	if opt.Timeout <= 0 {
		opt.Timeout = ShutdownTimeout
	}
	sigs := opt.Signals
	if sigs == nil {
		sigs = []os.Signal{os.Interrupt, syscall.SIGTERM}
	}
	signal.Ignore(syscall.SIGHUP)
	got := make(chan os.Signal, 1)
	signal.Notify(got, sigs...)
	defer signal.Stop(got)

	base, cancelBase := context.WithCancel(context.Background())
	defer cancelBase()
	srv := NewServer(h)
	srv.BaseContext = func(net.Listener) context.Context { return base }
	served := make(chan error, 1)
	if opt.Ready != nil {
		opt.Ready(ln.Addr())
	}
	go func() { served <- srv.Serve(ln) }()
	var sig os.Signal
	select {
	case err := <-served:
		return err
	case sig = <-got:
	}
	signal.Stop(got) // a second signal kills the process as usual
	if opt.Stopping != nil {
		opt.Stopping(sig)
	}
	ctx, cancel := context.WithTimeout(context.Background(), opt.Timeout)
	defer cancel()
	if opt.Drain == nil {
		cancelBase()
	}
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(ctx) }() // closes the listener at once
	if opt.Drain != nil {
		opt.Drain(ctx)
	}
	if err := <-shut; err != nil {
		cancelBase()
		srv.Close()
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
