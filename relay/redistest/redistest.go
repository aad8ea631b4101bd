package redistest

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Binary is the redis-server the tests run.
const Binary = "/usr/bin/redis-server"

// Server is a running redis-server.
type Server struct {
	t    testing.TB
	Addr string // 127.0.0.1:port
	dir  string
	aof  bool
	args []string // more arguments (a cluster node's)
	cmd  *exec.Cmd
	done chan struct{}
}

// Start starts a redis-server; aof turns on the append-only file (fsync
// always), so that a restart keeps what was written.
func Start(t testing.TB, aof bool) *Server {
	t.Helper()
	require(t)
	s := &Server{t: t, dir: t.TempDir(), aof: aof, Addr: freeAddr(t)}
	s.start()
	t.Cleanup(s.Stop)
	return s
}

// require skips (or fails, where Redis is required) a test without
// redis-server.
func require(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(Binary); err != nil {
		if os.Getenv("CI") == "true" || os.Getenv("AGUI_REQUIRE_REDIS") != "" {
			t.Fatalf("%s is missing (CI installs it: .ci/run)", Binary)
		}
		t.Skipf("%s is missing: install Debian's redis-server to run this test", Binary)
	}
}

// freeAddr is a loopback address with a free port.
func freeAddr(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// URL is the server's redis:// URL.
func (s *Server) URL() string { return "redis://" + s.Addr + "/0" }

func (s *Server) start() {
	t := s.t
	_, port, _ := net.SplitHostPort(s.Addr)
	args := []string{"--port", port, "--bind", "127.0.0.1", "--dir", s.dir, "--save", "", "--daemonize", "no",
		"--protected-mode", "yes", "--loglevel", "warning"}
	if s.aof {
		args = append(args, "--appendonly", "yes", "--appendfsync", "always")
	} else {
		args = append(args, "--appendonly", "no")
	}
	args = append(args, s.args...)
	cmd := exec.Command(Binary, args...)
	out, err := os.Create(s.dir + "/redis.log")
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.cmd = cmd
	s.done = make(chan struct{})
	go func() { cmd.Wait(); out.Close(); close(s.done) }()
	for i := 0; i < 200; i++ { // up to 10 s
		if s.ping() {
			return
		}
		select {
		case <-s.done:
			log, _ := os.ReadFile(s.dir + "/redis.log")
			t.Fatalf("redis-server exited: %s", log)
		case <-time.After(50 * time.Millisecond):
		}
	}
	t.Fatal("redis-server did not answer in 10 s")
}

func (s *Server) ping() bool {
	c, err := net.DialTimeout("tcp", s.Addr, time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Second))
	fmt.Fprint(c, "PING\r\n")
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && strings.HasPrefix(line, "+PONG")
}

// Stop kills the server (SIGKILL: no last save) and waits for it.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Kill()
	<-s.done
	s.cmd = nil
}

// Restart kills the server and starts it again on the same port and
// directory (with AOF, it reloads what was written).
func (s *Server) Restart(down time.Duration) {
	s.Stop()
	time.Sleep(down)
	s.start()
}
