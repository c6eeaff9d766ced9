package fields_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/plugins/fields"
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

// TestTypoedKeyOfFreeFormProcessor checks that a misspelt optional key of a
// processor taking free-form keys is refused with the declared key it
// resembles, not taken as a field name or a condition.
func TestTypoedKeyOfFreeFormProcessor(t *testing.T) {
	reg := all.NewRegistry()
	for _, tt := range []struct {
		processor string
		conf      map[string]string
		key, want string
	}{
		{"pkg.processor.ConvertSimpleDateFormatFields", map[string]string{"input.date.format": "yyyy/MM/dd HH:mm:ss", "timezon": "UTC", "event_time": "${date}"}, "timezon", `did you mean "timezone"?`},
		{"pkg.processor.FilterRecords", map[string]string{"keep.eror": "false", "not_health": `http_query != "/health"`}, "keep.eror", `did you mean "keep.errors"?`},
		{"pkg.processor.ConvertFieldsType", map[string]string{"conversion.failur": "error", "bytes_out": "int"}, "conversion.failur", `did you mean "conversion.failure"?`},
	} {
		spec, ok := reg.Lookup(tt.processor)
		if !ok {
			t.Fatalf("%s is not registered", tt.processor)
		}
		// A refused configuration decodes into no typed configuration, so
		// the misspelt key cannot reach the processor as a free-form one.
		_, probs := component.NewConfig(spec, tt.conf)
		if len(probs) != 1 || probs[0].Key != tt.key || !strings.Contains(probs[0].Msg, tt.want) {
			t.Errorf("%s: problems %v, want one on %q saying %s", tt.processor, probs, tt.key, tt.want)
		}
	}
	// Free-form keys that merely resemble a declared one are kept, as
	// conditions.
	spec, _ := reg.Lookup("pkg.processor.FilterRecords")
	conf, probs := component.NewConfig(spec, map[string]string{"login": `user != "-"`, "keep.admins": `user == "root"`})
	if len(probs) != 0 {
		t.Fatalf("free-form conditions refused: %v", probs)
	}
	c, err := component.Typed[fields.FilterRecordsConfig](conf)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Conditions) != 2 || c.Conditions["login"] == "" || c.Conditions["keep.admins"] == "" {
		t.Errorf("conditions %v, want login and keep.admins", c.Conditions)
	}
}
