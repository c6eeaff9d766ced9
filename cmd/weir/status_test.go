package main

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/streamtest"
)

// TestStatusServerOfTheProcess: the weir process serves weir_build_info
// and the versioned /api/status, and turns ready once its job runs.
func TestStatusServerOfTheProcess(t *testing.T) {
	b := streamtest.StartBroker(t)
	path := jobFile(t, "status-app", 0)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), "engine.ui.port: -1", fmt.Sprintf("engine.ui.port: %d", port), 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startWeir(t, []string{"BROKER_LIST=" + b.Addr}, "run", "--conf", path)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	get := func(path string) (int, string) {
		resp, err := http.Get(base + path)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if code, _ := get("/readyz"); code == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz not 200 within 60 s:\n%s", p.output())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, body := get("/metrics"); !strings.Contains(body, "weir_build_info{") {
		t.Errorf("/metrics has no weir_build_info")
	}
	_, body := get("/api/status")
	for _, want := range []string{`"schemaVersion": 1`, `"timeoutMs": -1`, `"batchDurationMs": 50`, `"state": "running"`} {
		if !strings.Contains(body, want) {
			t.Errorf("/api/status lacks %s:\n%s", want, body)
		}
	}
	// One version everywhere: weir version, /api/status and the page.
	out, err := exec.Command(weirBin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	printed := strings.TrimPrefix(strings.TrimSpace(string(out)), "weir ")
	var st struct {
		Build struct{ Version, Commit string }
	}
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatal(err)
	}
	apiVersion := st.Build.Version
	if st.Build.Commit != "" {
		apiVersion += " (commit " + st.Build.Commit + ")"
	}
	if apiVersion != printed {
		t.Errorf("/api/status says version %q, weir version %q", apiVersion, printed)
	}
	if _, page := get("/"); !strings.Contains(page, `data-field="version">`+html.EscapeString(printed)+`<`) {
		t.Errorf("the status page does not show version %q", printed)
	}
}
