// Package redis runs a real Redis for tests: Debian's redis-server
// (scripts/test installs it), started on a free 127.0.0.1 port with an
// empty temporary directory, no persistence, and stopped when the test
// ends. Without the binary the test skips, and fails when CI is set.
package redis

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Binary is the server program looked up in PATH.
const Binary = "redis-server"

// Server is a running redis-server.
type Server struct {
	cmd  *exec.Cmd
	port int
	done chan struct{}
	logs *syncBuffer
	once sync.Once
}

// New starts redis-server for a test and stops it when the test ends.
func New(tb testing.TB) *Server {
	tb.Helper()
	bin, err := exec.LookPath(Binary)
	if err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("%s is not installed (scripts/test installs it): %v", Binary, err)
		}
		tb.Skipf("%s is not installed (apt-get install redis-server): %v", Binary, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("find a free port: %v", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	s := &Server{port: port, done: make(chan struct{}), logs: &syncBuffer{}}
	s.cmd = exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", tb.TempDir(), "--protected-mode", "yes")
	s.cmd.Stdout, s.cmd.Stderr = s.logs, s.logs
	if err := s.cmd.Start(); err != nil {
		tb.Fatalf("run %s: %v", bin, err)
	}
	go func() { // owned by the Server: Stop waits for it
		_ = s.cmd.Wait()
		close(s.done)
	}()
	tb.Cleanup(func() {
		s.Stop()
		if tb.Failed() {
			tb.Logf("redis-server output:\n%s", s.logs.String())
		}
	})
	if err := s.waitReady(30 * time.Second); err != nil {
		tb.Fatalf("redis-server: %v\n%s", err, s.logs.String())
	}
	return s
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// Stop kills the server and waits for it to exit; later calls do nothing.
func (s *Server) Stop() {
	s.once.Do(func() {
		_ = s.cmd.Process.Kill()
		<-s.done
	})
}

// waitReady sends PING until the server answers PONG.
func (s *Server) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			return errors.New("exited at start")
		default:
		}
		if c, err := net.DialTimeout("tcp", s.Addr(), time.Second); err == nil {
			_ = c.SetDeadline(time.Now().Add(time.Second))
			_, _ = fmt.Fprint(c, "PING\r\n")
			line, _ := bufio.NewReader(c).ReadString('\n')
			c.Close()
			if strings.HasPrefix(line, "+PONG") {
				return nil
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("no PONG within %v", limit)
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
