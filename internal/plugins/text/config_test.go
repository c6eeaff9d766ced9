package text_test

import (
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/component/configtest"
	"github.com/weir-streams/weir/internal/plugins/text"
)

// TestSplitTextConfig decodes the configurations of testdata/config.yaml
// into SplitTextConfig: the defaults, every key given, and what Validate
// or a key's validator refuses.
func TestSplitTextConfig(t *testing.T) {
	defaults := text.SplitTextConfig{RecordType: "generic", ValueRegex: "%{COMMONAPACHELOG}", KeepRaw: true, TimeZone: "UTC",
		NamedOnly: true, ECS: "v1", Timeout: 30 * time.Second, BreakOnMatch: true, TagOnFailure: "regex_matching_error"}
	plain := defaults
	plain.ValueRegex, plain.ValueFields = `(\S+) \S+ (\S+)`, []string{"src_ip", "user"}
	configtest.Run(t, text.SplitTextSpec(), "testdata/config.yaml", []configtest.Case[text.SplitTextConfig]{
		{ID: "defaults", Want: &defaults},
		{ID: "full", Want: &text.SplitTextConfig{RecordType: "apache_log", ValueRegex: "%{COMBINEDAPACHELOG}\n%{COMMONAPACHELOG}\n",
			KeyRegex: `(\w+)-(\d+)`, KeyFields: []string{"host", "partition"}, TimeZone: "Europe/Paris",
			Definitions: `MYWORD \w+`, FieldMapping: []string{"spec"}, MatchField: "matched_by", ECS: "disabled",
			Timeout: 250 * time.Millisecond, KeepEmpty: true, TagOnFailure: "_grokparsefailure", Overwrite: []string{"message", "host"}}},
		{ID: "plain_regex", Want: &plain},
		{ID: "plain_regex_without_fields", WantErr: `"value.fields" must name its 2 capture groups`},
		{ID: "unknown_pattern", WantErr: `unknown pattern "NOSUCHPATTERN"`},
		{ID: "bad_time_zone", WantErr: `timezone.record.time`},
		{ID: "bad_timeout", WantErr: `grok.timeout.millis`},
		{ID: "bad_ecs_mode", WantErr: `grok.ecs.compatibility`},
	})
}
