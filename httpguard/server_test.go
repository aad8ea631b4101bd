package httpguard

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"syscall"
	"testing"
	"time"
)

// TestServeDrain: at the signal the listener closes, the request going on
// keeps its context while Drain ends it, its last words reach the client,
// and ServeListener returns; SIGHUP changes nothing.
func TestServeDrain(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	end := make(chan struct{})
	started := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("first\n"))
		w.(http.Flusher).Flush()
		close(started)
		select {
		case <-end:
			w.Write([]byte("last words\n"))
		case <-r.Context().Done():
			w.Write([]byte("cancelled\n"))
		}
	})
	drained := make(chan time.Duration, 1)
	served := make(chan error, 1)
	go func() {
		served <- ServeListener(ln, h, DrainOptions{
			Signals: []os.Signal{syscall.SIGUSR1},
			Timeout: 10 * time.Second,
			Drain: func(ctx context.Context) {
				dl, _ := ctx.Deadline()
				drained <- time.Until(dl)
				close(end)
			},
		})
	}()
	resp, err := http.Get("http://" + ln.Addr().String() + "/")
	if err != nil {
		t.Fatal(err)
	}
	<-started
	syscall.Kill(os.Getpid(), syscall.SIGHUP)
	time.Sleep(50 * time.Millisecond)
	syscall.Kill(os.Getpid(), syscall.SIGUSR1)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "first\nlast words\n" {
		t.Fatalf("the client read %q", body)
	}
	if d := <-drained; d <= 0 || d > 10*time.Second {
		t.Fatalf("Drain's context ends in %v", d)
	}
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if _, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
		t.Fatal("the listener still accepts")
	}
}
