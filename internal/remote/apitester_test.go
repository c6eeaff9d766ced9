package remote_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/streamtest"
)

// The versions of LogIsland's apitester/package-lock.json.
const (
	expressVersion    = "4.16.3"
	bodyParserVersion = "1.18.3"
)

// apitesterModules returns a node_modules directory holding Express and
// body-parser, installed from npm once into the user's cache directory and
// reused by later runs. The test fails when node or npm is missing and CI
// is set (scripts/test installs them), and is skipped otherwise.
func apitesterModules(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is needed for LogIsland's REST test server: %v", tool, err)
			}
			t.Skipf("%s is not installed", tool)
		}
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, "weir", "apitester-express-"+expressVersion)
	modules := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(filepath.Join(modules, "express", "package.json")); err == nil {
		return modules
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"weir-apitester-deps","private":true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--save-exact",
		"express@"+expressVersion, "body-parser@"+bodyParserVersion)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install: %v\n%s", err, out)
	}
	return modules
}

// syncBuffer is node's output, read while node writes it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestLogIslandAPITester drives Weir with LogIsland's own REST test server
// (testdata/logisland/apitester: index.js run by Node with Express from
// npm) serving its own logisland.json, with only the package prefix
// changed, KryoSerializer replaced by JsonSerializer and its broker
// (sandbox:9092) pointed at the test's: Weir polls the dataflow, runs it
// (every parsed line reaches logisland_events), and posts its snapshot,
// in Weir's names, back to the server, which prints it.
func TestLogIslandAPITester(t *testing.T) {
	modules := apitesterModules(t)
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "logisland_raw", 4)

	src := filepath.Join(streamtest.Root(), "testdata", "logisland", "apitester")
	dir := t.TempDir()
	index, err := os.ReadFile(filepath.Join(src, "index.js"))
	if err != nil {
		t.Fatal(err)
	}
	flow, err := os.ReadFile(filepath.Join(src, "logisland.json"))
	if err != nil {
		t.Fatal(err)
	}
	body := strings.NewReplacer("com.hurence.logisland", "pkg", "sandbox:9092", b.Addr).Replace(string(flow))
	body = strings.ReplaceAll(body, "pkg.serializer.KryoSerializer", "pkg.serializer.JsonSerializer")
	if err := os.WriteFile(filepath.Join(dir, "index.js"), index, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "logisland.json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()

	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	node := exec.CommandContext(ctx, "node", "index.js")
	node.Dir = dir
	node.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port), "NODE_PATH="+modules)
	node.Stdout, node.Stderr = out, out
	if err := node.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = node.Wait()
		t.Logf("apitester's output:\n%s", out)
	})
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(out.String(), "server started") {
		if time.Now().After(deadline) {
			t.Fatalf("apitester did not start:\n%s", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if resp, err := http.Get(base + "/dataflows/lis"); err != nil || resp.StatusCode != 200 {
		t.Fatalf("apitester does not serve the dataflow: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}

	e := streamtest.NewEngine(t, engine.Settings{AppName: "lis"})
	c := newClient(t, settings(base, "lis"), e, t.TempDir(), &logBuffer{})
	runClient(t, c)

	lines := streamtest.AccessLogLines(t)[:200]
	b.ProduceLines(t, "logisland_raw", lines)
	events := streamtest.Decode(t, b.Consume(t, "logisland_events", len(lines), 2*time.Minute))
	for _, r := range events {
		if r.Type != "apache_logs" {
			t.Fatalf("record type %q, want apache_logs", r.Type)
		}
	}
	deadline = time.Now().Add(time.Minute)
	for !strings.Contains(out.String(), `"key":"broker.input.topics"`) {
		if time.Now().After(deadline) {
			t.Fatalf("no snapshot in Weir's names reached apitester:\n%s", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(out.String(), "Logisland active dataflows for job lis") {
		t.Errorf("apitester did not log the notification:\n%s", out)
	}
}
