package fields_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/streamtest"
)

// TestBadExpressionInJobFile breaks the filter of the full sample job and
// checks that validation names the key path, the line and the column.
func TestBadExpressionInJobFile(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(streamtest.Root(), "conf", "index-apache-logs-full.yml"))
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(data), "not_health_check: >-", "not_health_check: http_status === 5\n            was: >-", 1)
	env := func(k string) (string, bool) { return "", false }
	job, err := config.Parse([]byte(bad), time.Unix(1, 0), env)
	if err != nil {
		t.Fatal(err)
	}
	_, err = config.Check(job, all.NewRegistry())
	if err == nil {
		t.Fatal("a bad expression passed validation")
	}
	msg := err.Error()
	for _, want := range []string{
		"streamConfigurations[parsing_stream].processorConfigurations[drop_health_checks].configuration",
		`property "not_health_check": column 15`,
		"line ",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
}
