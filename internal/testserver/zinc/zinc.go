// Package zinc runs a real search server for tests: ZincSearch v0.4.10,
// which serves the Elasticsearch `_bulk` API under /es. ZincSearch is a
// main package, not a library, so the harness builds it once from the Go
// module proxy into a cache directory (WEIR_ZINC_CACHE, or
// <user cache dir>/weir/zincsearch-v0.4.10), reuses the binary across runs
// and test packages, and runs it as a process on a free 127.0.0.1 port with
// a temporary data directory. A server can be killed (SIGKILL) and started
// again on the same port with the same data, which is how tests take the
// index down in the middle of a run.
//
// Two edits make v0.4.10 build with the current Go toolchain, in the copy
// of the module only: web/dist/index.html is created (the web UI is built
// by npm and embedded; the API does not need it), and continuous profiling
// (pyroscope, off by default) is cut out of main, because its dependency
// godeltaprof v0.1.2 links runtime internals that Go 1.22 and later no
// longer offer.
//
// Known limit of ZincSearch that tests must work around: its `_bulk`
// answers 200 with status 200 for every item, and on a failure stops and
// reports a top-level "error" with the items handled so far. It cannot show
// per-item refusals (400, 429), so those are tested against an HTTP server
// that answers in Elasticsearch's documented format.
package zinc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Module and Version are what the harness builds.
const (
	Module  = "github.com/zincsearch/zincsearch"
	Version = "v0.4.10"
)

// The first administrator, created by ZincSearch at its first start.
const (
	User     = "admin"
	Password = "Weir-test-1"
)

// Binary returns the path of the ZincSearch binary, building it first if
// the cache does not hold it. Builds are serialized across processes by a
// lock file, so parallel test packages build it once.
func Binary() (string, error) {
	dir := os.Getenv("WEIR_ZINC_CACHE")
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("find a cache directory for ZincSearch (set WEIR_ZINC_CACHE): %w", err)
		}
		dir = filepath.Join(base, "weir", "zincsearch-"+Version)
	}
	bin := filepath.Join(dir, "zincsearch")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("make ZincSearch cache directory: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, "build.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", fmt.Errorf("open build lock: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", fmt.Errorf("take build lock: %w", err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) //nolint:errcheck // released by close anyway
	if _, err := os.Stat(bin); err == nil {
		return bin, nil // another process built it meanwhile
	}
	if err := build(dir, bin); err != nil {
		return "", err
	}
	return bin, nil
}

// build downloads the module, prepares a writable copy and builds it.
func build(dir, bin string) error {
	var info struct{ Dir, Error string }
	out, err := goCmd(dir, "mod", "download", "-json", Module+"@"+Version).Output()
	if jerr := json.Unmarshal(out, &info); jerr != nil || info.Dir == "" {
		return fmt.Errorf("download %s@%s: %v %s %s", Module, Version, err, info.Error, exitText(err))
	}
	src := filepath.Join(dir, "src")
	if err := os.RemoveAll(src); err != nil {
		return fmt.Errorf("clear %s: %w", src, err)
	}
	if err := os.CopyFS(src, os.DirFS(info.Dir)); err != nil {
		return fmt.Errorf("copy the ZincSearch module: %w", err)
	}
	if err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		}
		return os.Chmod(p, mode)
	}); err != nil {
		return fmt.Errorf("make the ZincSearch copy writable: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(src, "web", "dist"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(src, "web", "dist", "index.html"), []byte("<!doctype html><title>ZincSearch</title>\n"), 0o644); err != nil {
		return err
	}
	if err := cutProfiling(filepath.Join(src, "cmd", "zincsearch", "main.go")); err != nil {
		return err
	}
	tmp := bin + ".tmp"
	cmd := goCmd(src, "build", "-o", tmp, "./cmd/zincsearch")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build ZincSearch %s: %w\n%s", Version, err, out)
	}
	return os.Rename(tmp, bin)
}

// cutProfiling removes the pyroscope profiler from ZincSearch's main.
func cutProfiling(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(b)
	i, j := strings.Index(s, "func profiling() {"), strings.Index(s, "// shutdown support twice")
	imp := "\t\"github.com/pyroscope-io/client/pyroscope\"\n"
	if i < 0 || j < i || !strings.Contains(s, imp) || !strings.Contains(s, "\t\"strings\"\n") {
		return fmt.Errorf("%s is not the main.go of ZincSearch %s the harness knows", path, Version)
	}
	s = s[:i] + "func profiling() {}\n\n" + s[j:]
	s = strings.Replace(s, imp, "", 1)
	// strings was used only by profiling.
	s = strings.Replace(s, "\t\"strings\"\n", "", 1)
	return os.WriteFile(path, []byte(s), 0o644)
}

func goCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "CGO_ENABLED=0")
	return cmd
}

func exitText(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return string(ee.Stderr)
	}
	return ""
}

// Server is one ZincSearch process. Its methods are safe for concurrent
// use.
type Server struct {
	bin, dir string
	port     int
	logs     *syncBuffer

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

// New builds ZincSearch if needed, starts it for a test and stops it when
// the test ends. Without the Go toolchain or the module proxy the test
// fails (it never skips).
func New(tb testing.TB) *Server {
	tb.Helper()
	bin, err := Binary()
	if err != nil {
		tb.Fatalf("ZincSearch: %v", err)
	}
	s := &Server{bin: bin, dir: tb.TempDir(), logs: &syncBuffer{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("find a free port: %v", err)
	}
	s.port = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	if err := s.Start(); err != nil {
		tb.Fatalf("start ZincSearch: %v", err)
	}
	tb.Cleanup(func() {
		s.Kill()
		if tb.Failed() {
			tb.Logf("ZincSearch output:\n%s", s.logs.String())
		}
	})
	return s
}

// URL is the server's base URL; the Elasticsearch API is under /es.
func (s *Server) URL() string { return "http://127.0.0.1:" + strconv.Itoa(s.port) }

// ESURL is the base URL of the Elasticsearch-compatible API, the one to
// give the search-index service as a host.
func (s *Server) ESURL() string { return s.URL() + "/es" }

// Start runs the server on its port with its data directory and returns
// once it answers /healthz.
func (s *Server) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return errors.New("ZincSearch is already running")
	}
	cmd := exec.Command(s.bin)
	cmd.Dir = s.dir
	cmd.Env = append(os.Environ(),
		"ZINC_SERVER_ADDRESS=127.0.0.1",
		"ZINC_SERVER_PORT="+strconv.Itoa(s.port),
		"ZINC_DATA_PATH="+filepath.Join(s.dir, "data"),
		"ZINC_FIRST_ADMIN_USER="+User,
		"ZINC_FIRST_ADMIN_PASSWORD="+Password,
		"ZINC_TELEMETRY=false",
		"ZINC_SENTRY=false",
		"ZINC_PROFILER=false",
		"GIN_MODE=release",
	)
	cmd.Stdout, cmd.Stderr = s.logs, s.logs
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("run %s: %w", s.bin, err)
	}
	done := make(chan struct{})
	go func() { // owned by the Server: Kill waits for it
		_ = cmd.Wait()
		close(done)
	}()
	s.cmd, s.done = cmd, done
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			s.cmd = nil
			return fmt.Errorf("ZincSearch exited at start:\n%s", s.logs.String())
		default:
		}
		resp, err := http.Get(s.URL() + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return errors.New("ZincSearch did not answer /healthz within a minute")
}

// Kill stops the server with SIGKILL, as a crash would, and waits for the
// process to end. It does nothing if the server is not running.
func (s *Server) Kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.done
	s.cmd = nil
}

// Settle waits until the files of the data directory stop changing (the
// same names and sizes in two listings 200 ms apart), for at most a
// minute. ZincSearch writes its index segments in the background, and a
// SIGKILL between creating a segment file and writing it leaves an empty
// file that ZincSearch then refuses to open ("existing snapshots found, but
// none could be loaded"). A test that kills the server to show that written
// data survives settles it first; a test that kills it in the middle of
// writes, to show that Weir retries, does not.
func (s *Server) Settle() error {
	prev := ""
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		var b strings.Builder
		err := filepath.WalkDir(s.dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "%s %d\n", path, info.Size())
			return nil
		})
		if err != nil {
			return fmt.Errorf("list the data directory: %w", err)
		}
		if b.String() == prev {
			return nil
		}
		prev = b.String()
	}
	return errors.New("the data directory was still changing after a minute")
}

// Restart starts a killed server again with the same data.
func (s *Server) Restart() error { return s.Start() }

// Get fetches a document by id through /api/{index}/_doc/{id}. found is
// false when the index does not hold it.
func (s *Server) Get(index, id string) (source map[string]any, found bool, err error) {
	body, status, err := s.do(http.MethodGet, "/api/"+index+"/_doc/"+id, nil)
	if err != nil {
		return nil, false, err
	}
	if status == http.StatusNotFound || status == http.StatusBadRequest && bytes.Contains(body, []byte("does not exist")) {
		return nil, false, nil
	}
	if status != http.StatusOK {
		return nil, false, fmt.Errorf("get %s/%s: HTTP %d: %s", index, id, status, body)
	}
	var doc struct {
		ID        string         `json:"_id"`
		Timestamp string         `json:"@timestamp"`
		Source    map[string]any `json:"_source"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, false, fmt.Errorf("decode document %s/%s: %w", index, id, err)
	}
	if doc.ID != id {
		return nil, false, nil
	}
	// ZincSearch keeps @timestamp beside the source; put it back in.
	doc.Source["@timestamp"] = doc.Timestamp
	return doc.Source, true, nil
}

// Count returns the number of documents in the index, from the total of a
// search for every document.
func (s *Server) Count(index string) (int, error) {
	body, status, err := s.do(http.MethodPost, "/es/"+index+"/_search", []byte(`{"query":{"match_all":{}},"size":0,"track_total_hits":true}`))
	if err != nil {
		return 0, err
	}
	if status != http.StatusOK {
		return 0, fmt.Errorf("search %s: HTTP %d: %s", index, status, body)
	}
	var res struct {
		Hits struct {
			Total struct {
				Value int `json:"value"`
			} `json:"total"`
		} `json:"hits"`
	}
	if err := json.Unmarshal(body, &res); err != nil {
		return 0, fmt.Errorf("decode search answer: %w", err)
	}
	return res.Hits.Total.Value, nil
}

// IDs returns how many times each document id appears in the index, from
// a search for every document (at most 10,000, ZincSearch's default; use
// Count to see whether there are more).
func (s *Server) IDs(index string) (map[string]int, error) {
	q := `{"query":{"match_all":{}},"size":10000,"_source":false}`
	body, status, err := s.do(http.MethodPost, "/es/"+index+"/_search", []byte(q))
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("search %s: HTTP %d: %s", index, status, body)
	}
	var res struct {
		Hits struct {
			Hits []struct {
				ID string `json:"_id"`
			} `json:"hits"`
		} `json:"hits"`
	}
	if err := json.Unmarshal(body, &res); err != nil {
		return nil, fmt.Errorf("decode search answer: %w", err)
	}
	ids := make(map[string]int, len(res.Hits.Hits))
	for _, h := range res.Hits.Hits {
		ids[h.ID]++
	}
	return ids, nil
}

func (s *Server) do(method, path string, body []byte) ([]byte, int, error) {
	req, err := http.NewRequest(method, s.URL()+path, bytes.NewReader(body))
	if err != nil {
		return nil, 0, err
	}
	req.SetBasicAuth(User, Password)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, 0, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return b, resp.StatusCode, err
}

// syncBuffer collects the server's output for a failing test's log.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf.Len() > 1<<20 {
		return len(p), nil // enough to diagnose; do not grow without bound
	}
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
