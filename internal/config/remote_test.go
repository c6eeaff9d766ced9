package config_test

import (
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/plugins/all"
)

// A job that takes its dataflow from the REST API may hold only the engine;
// without remote.api.baseUrl it may not.
func TestEngineOnlyJobNeedsTheRESTAPI(t *testing.T) {
	const job = `engine:
  component: pkg.engine.engine.BrokerStreamProcessingEngine
  configuration:
    engine.app.name: live
`
	env := func(string) (string, bool) { return "", false }
	if _, err := config.Parse([]byte(job), time.Now(), env); err == nil || !strings.Contains(err.Error(), "the job has no stream") {
		t.Fatalf("engine-only job without the REST API: err = %v", err)
	}
	j, err := config.Parse([]byte(job+"    remote.api.baseUrl: http://127.0.0.1:8080\n    remote.api.auth.token: t0ken\n"), time.Now(), env)
	if err != nil {
		t.Fatalf("engine-only job with the REST API: %v", err)
	}
	if _, err := config.Check(j, all.NewRegistry()); err != nil {
		t.Fatalf("validate: %v", err)
	}
	if len(j.DataFlow.Streams) != 0 || len(j.DataFlow.Services) != 0 {
		t.Fatalf("dataflow = %+v", j.DataFlow)
	}
	// A wrong remote key is refused with its path, like any engine key.
	j, err = config.Parse([]byte(job+"    remote.api.baseUrl: ftp://x\n    remote.api.polling.rat: 5\n"), time.Now(), env)
	if err != nil {
		t.Fatal(err)
	}
	_, err = config.Check(j, all.NewRegistry())
	for _, want := range []string{`property "remote.api.baseUrl": URL scheme "ftp" is not one of http, https`, `unknown property "remote.api.polling.rat" (did you mean "remote.api.polling.rate"?)`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want %q", err, want)
		}
	}
}
