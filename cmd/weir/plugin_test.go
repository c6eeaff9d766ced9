package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/streamtest"
)

// weirCmd runs the weir binary to completion with WEIR_HOME=home and
// returns its exit code and output.
func weirCmd(t *testing.T, home, dir string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(weirBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "WEIR_HOME="+home)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("weir %v: %v", args, err)
	}
	return code, string(out)
}

// TestPluginLifecycleThroughTheCommand drives the installer as a user does,
// with the weir binary: keygen, publish the example plugin to a directory
// repository, serve it over HTTP, weir -i, weir -l, validate and run a job
// that uses it on a broker, weir -r.
func TestPluginLifecycleThroughTheCommand(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	plugin := filepath.Join(dir, "urlrequest")
	build := exec.Command("go", "build", "-o", plugin, "./examples/plugins/urlrequest/cmd/urlrequest")
	build.Dir = streamtest.Root()
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the example plugin: %v\n%s", err, out)
	}
	mustRun := func(args ...string) string {
		t.Helper()
		code, out := weirCmd(t, home, dir, args...)
		if code != 0 {
			t.Fatalf("weir %s: exit %d\n%s", strings.Join(args, " "), code, out)
		}
		return out
	}
	mustRun("components", "keygen", "publisher")
	mustRun("components", "publish", "--repo", "repo", "--key", "publisher.key", "com.example.weir:urlrequest:1.0.0", "urlrequest")
	// sign makes the signature publish made (ed25519 is deterministic):
	// the same coordinates, platform and archive.
	archive := filepath.Join(dir, "repo", "com", "example", "weir", "urlrequest", "1.0.0",
		"urlrequest-1.0.0-"+runtime.GOOS+"-"+runtime.GOARCH+".tar.gz")
	published, err := os.ReadFile(archive + ".sig")
	if err != nil {
		t.Fatal(err)
	}
	resign := filepath.Join(dir, filepath.Base(archive))
	data, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(resign, data, 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun("components", "sign", "--key", "publisher.key", "com.example.weir:urlrequest:1.0.0", resign)
	if again, err := os.ReadFile(resign + ".sig"); err != nil || string(again) != string(published) {
		t.Fatalf("components sign wrote %q (%v), publish wrote %q", again, err, published)
	}
	// The platform comes from the name, which must be the version's.
	if code, out := weirCmd(t, home, dir, "components", "sign", "--key", "publisher.key", "com.example.weir:urlrequest:2.0.0", resign); code != 1 || !strings.Contains(out, "is not named urlrequest-2.0.0-") {
		t.Fatalf("sign under another version's name: exit %d\n%s", code, out)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join(dir, "repo"))))
	defer srv.Close()

	// Without the publisher's key, the signature cannot be trusted.
	code, out := weirCmd(t, home, dir, "-i", "com.example.weir:urlrequest:1.0.0", "--repo", srv.URL)
	if code != 1 || !strings.Contains(out, "signature check failed") {
		t.Fatalf("install without a trusted key: exit %d\n%s", code, out)
	}
	out = mustRun("-i", "com.example.weir:urlrequest:1.0.0", "--repo", srv.URL, "--trusted-key", "publisher.pub")
	if !strings.Contains(out, "installed com.example.weir:urlrequest:1.0.0") || !strings.Contains(out, "com.example.processor.ParseUrlRequest") {
		t.Fatalf("install output:\n%s", out)
	}
	code, out = weirCmd(t, home, dir, "-i", "com.example.weir:urlrequest:1.0.0", "--repo", srv.URL, "--trusted-key", "publisher.pub")
	if code != 1 || !strings.Contains(out, "remove it first") {
		t.Fatalf("second install: exit %d\n%s", code, out)
	}
	code, out = weirCmd(t, home, dir, "-i", "com.hurence.logisland:logisland-processor-useragent:1.4.0")
	if code != 0 || !strings.Contains(out, "bundled with Weir") {
		t.Fatalf("install of a bundled component: exit %d\n%s", code, out)
	}
	out = mustRun("-l")
	for _, want := range []string{"com.example.weir:urlrequest:1.0.0", "signed by --trusted-key 1", "com.example.processor.ParseUrlRequest", "weir-processor-useragent"} {
		if !strings.Contains(out, want) {
			t.Fatalf("weir -l lacks %q:\n%s", want, out)
		}
	}
	if out := mustRun("components"); !strings.Contains(out, "## com.example.processor.ParseUrlRequest (processor)") {
		t.Fatal("weir components does not document the plugin's processor")
	}

	// A job that uses it: validated with the plugin's keys, then run.
	b := streamtest.StartBroker(t)
	b.CreateTopic(t, "raw", 2)
	var job string
	writeJob := func(extra string) {
		t.Helper()
		job = parsingJob{App: "plugin-job", Brokers: b.Addr, Processors: `      - processor: url
        component: com.example.processor.ParseUrlRequest
        configuration:
          query.prefix: q_
` + extra}.write(t, "job.yml")
	}
	writeJob("          on.invalid: ignore\n")
	code, out = weirCmd(t, home, dir, "validate", "--conf", job)
	if code != 1 || !strings.Contains(out, "processorConfigurations[url]") || !strings.Contains(out, `"ignore" is not one of raw, error`) {
		t.Fatalf("validate of a bad plugin key: exit %d\n%s", code, out)
	}
	// The plugin's own Check (keys that must agree) runs in validate too,
	// each of its problems reported at the processor.
	writeJob("          path.field: u\n          extension.field: u\n          query.keep: utm_source\n          query.max: 0\n")
	code, out = weirCmd(t, home, dir, "validate", "--conf", job)
	if code != 1 || !strings.Contains(out, "processorConfigurations[url]") || !strings.Contains(out, `path.field and extension.field both name field "u"`) ||
		!strings.Contains(out, "query.max is 0") {
		t.Fatalf("validate of plugin settings its Check refuses: exit %d\n%s", code, out)
	}
	writeJob("")
	mustRun("validate", "--conf", job)

	lines := streamtest.AccessLogLines(t)[:2000]
	b.ProduceLines(t, "raw", lines)
	p := startWeir(t, []string{"WEIR_HOME=" + home}, "--conf", job)
	deadline := time.Now().Add(90 * time.Second)
	for b.Count(t, "events")+b.Count(t, "errors") < int64(len(lines)) {
		if time.Now().After(deadline) {
			t.Fatalf("%d events and %d errors, want %d in all\n%s", b.Count(t, "events"), b.Count(t, "errors"), len(lines), p.out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	events := streamtest.Decode(t, b.Consume(t, "events", int(b.Count(t, "events")), 30*time.Second))
	png := 0
	for _, r := range events {
		if !r.Has("url_path") {
			t.Fatalf("event without url_path: %s", r)
		}
		if e, _ := r.GetString("url_extension"); e == "png" {
			png++
		}
	}
	if png == 0 {
		t.Fatal("no event has url_extension png")
	}
	// Weir killed outright cannot stop its plugin: the plugin notices that
	// its parent is gone and exits (sdk.watchParent) instead of living on
	// as an orphan.
	bin := filepath.Join(home, "plugins", "com", "example", "weir", "urlrequest", "1.0.0", "urlrequest")
	if len(streamtest.PIDsRunning(t, bin)) == 0 {
		t.Fatal("no plugin process runs beside weir: the orphan check below would prove nothing")
	}
	p.kill9(t)
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		left := streamtest.PIDsRunning(t, bin)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("plugin processes %v still run 15 s after weir was killed", left)
		}
	}

	out = mustRun("-r", "com.example.weir:urlrequest")
	if !strings.Contains(out, "removed com.example.weir:urlrequest:1.0.0") {
		t.Fatalf("remove output:\n%s", out)
	}
	if out := mustRun("-l"); strings.Contains(out, "urlrequest") {
		t.Fatalf("still listed after remove:\n%s", out)
	}
	code, out = weirCmd(t, home, dir, "validate", "--conf", job)
	if code != 1 || !strings.Contains(out, `unknown processor component "com.example.processor.ParseUrlRequest"`) {
		t.Fatalf("validate after remove: exit %d\n%s", code, out)
	}
}
