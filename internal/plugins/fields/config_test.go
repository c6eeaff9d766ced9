package fields

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/component/configtest"
)

// configCase is one configuration of testdata/config.yaml: the decoded
// struct's exported fields (want), or the error it is refused with
// (wantErr). derived is what Validate derived from it, as the table's
// derive function prints it ("" when the table has none).
type configCase[C any] struct {
	id      string
	want    *C
	derived string
	wantErr string
}

// checkConfigs decodes each case against spec and compares it. derive, if
// not nil, prints the unexported fields Validate filled, which the
// constructor takes as they are.
func checkConfigs[C any](t *testing.T, spec component.Spec, derive func(*C) string, cases []configCase[C]) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.id, func(t *testing.T) {
			got, err := configtest.Decode[C](spec, "testdata/config.yaml", tt.id)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if e := exported(got); !reflect.DeepEqual(e, tt.want) {
				t.Errorf("decoded\n%+v\nwant\n%+v", e, tt.want)
			}
			if derive != nil {
				if d := derive(got); d != tt.derived {
					t.Errorf("derived %s, want %s", d, tt.derived)
				}
			}
		})
	}
}

// exported returns a copy of c with only its exported fields: the
// unexported ones hold compiled forms that compare by what they derive.
func exported[C any](c *C) *C {
	in, out := reflect.ValueOf(c).Elem(), new(C)
	o := reflect.ValueOf(out).Elem()
	for i := 0; i < in.NumField(); i++ {
		if in.Type().Field(i).IsExported() {
			o.Field(i).Set(in.Field(i))
		}
	}
	return out
}

var noKeys = map[string]string{}

// describe prints the rules Validate made, one by one.
func describe[T any](rules []T, f func(T) string) string {
	var b []string
	for _, r := range rules {
		b = append(b, f(r))
	}
	return strings.Join(b, "; ")
}

func TestAddFieldsConfig(t *testing.T) {
	derive := func(c *AddFieldsConfig) string {
		return describe(c.rules, func(r addRule) string { return fmt.Sprintf("%s->%s typed=%v", r.key, r.name.Const, r.typed) })
	}
	checkConfigs(t, AddFieldsSpec(), derive, []configCase[AddFieldsConfig]{
		{id: "add_fields_default", want: &AddFieldsConfig{ConflictPolicy: ConflictPolicy{policyKeepOld}, Fields: noKeys}},
		{id: "add_fields_full", want: &AddFieldsConfig{ConflictPolicy: ConflictPolicy{policyOverwrite}, Fields: map[string]string{
			"site": "www", "site.field.name": "web_site", "ua_length": "${len(http_user_agent)}", "ua_length.field.type": "int"}},
			derived: "site->web_site typed=false; ua_length->ua_length typed=true"},
		{id: "add_fields_orphan", wantErr: `property "site.field.type" describes field "site", which no key adds`},
		{id: "add_fields_bad_type", wantErr: `property "site.field.type": "date" is not a type`},
	})
}

func TestApplyRegexpConfig(t *testing.T) {
	derive := func(c *ApplyRegexpConfig) string {
		return describe(c.rules, func(r regexpRule) string { return fmt.Sprintf("%s %q %s", r.source, r.targets, r.re) })
	}
	checkConfigs(t, ApplyRegexpSpec(), derive, []configCase[ApplyRegexpConfig]{
		{id: "apply_regexp_default", want: &ApplyRegexpConfig{ConflictPolicy: ConflictPolicy{policyKeepOld}, Rules: noKeys}},
		{id: "apply_regexp_full", want: &ApplyRegexpConfig{ConflictPolicy: ConflictPolicy{policyOverwrite}, Rules: map[string]string{"referer": "referer_scheme,referer_hostname:(https?)://([^/]+)"}},
			derived: `referer ["referer_scheme" "referer_hostname"] ^(?:(https?)://([^/]+))`},
		{id: "apply_regexp_no_colon", wantErr: `property "referer": "([^/]+)" is not FIELD1,FIELD2,...:REGEX`},
		{id: "apply_regexp_bad_regex", wantErr: `property "referer": invalid regular expression`},
	})
}

func TestConvertFieldsTypeConfig(t *testing.T) {
	derive := func(c *ConvertFieldsTypeConfig) string { return fmt.Sprint(c.convs) }
	checkConfigs(t, ConvertFieldsTypeSpec(), derive, []configCase[ConvertFieldsTypeConfig]{
		{id: "convert_fields_type_default", want: &ConvertFieldsTypeConfig{Failure: "keep", Types: noKeys}, derived: "[]"},
		{id: "convert_fields_type_full", want: &ConvertFieldsTypeConfig{Failure: "error", Types: map[string]string{"bytes_out": "int", "ratio": "Double"}},
			derived: fmt.Sprint([]conversion{{"bytes_out", toInt}, {"ratio", toFloat}})},
		// Both bad types are reported.
		{id: "convert_fields_type_bad", wantErr: `property "bytes_out": "date" is not a type (one of string, int, long, float, double, boolean)` +
			"\n" + `  property "ratio": "pointer" is not a type`},
	})
}

func TestConvertSimpleDateFormatFieldsConfig(t *testing.T) {
	derive := func(c *ConvertSimpleDateFormatFieldsConfig) string {
		return fmt.Sprintf("%s %s plan=%v rules=%d", c.layout, c.loc, c.plan != nil, len(c.rules))
	}
	checkConfigs(t, ConvertSimpleDateFormatFieldsSpec(), derive, []configCase[ConvertSimpleDateFormatFieldsConfig]{
		{id: "convert_date_missing", wantErr: `missing required property "input.date.format"`},
		{id: "convert_date_minimal", want: &ConvertSimpleDateFormatFieldsConfig{DateFormat: "dd/MMM/yyyy:HH:mm:ss Z", Timezone: "UTC",
			ConflictPolicy: ConflictPolicy{policyKeepOld}, Dates: noKeys}, derived: "02/Jan/2006:15:04:05 -0700 UTC plan=true rules=0"},
		{id: "convert_date_full", want: &ConvertSimpleDateFormatFieldsConfig{DateFormat: "yyyy-MM-dd HH:mm:ss", Timezone: "CET",
			ConflictPolicy: ConflictPolicy{policyOverwrite}, Dates: map[string]string{"event_time": "${date_raw}"}}, derived: "2006-01-02 15:04:05 CET plan=true rules=1"},
		{id: "convert_date_bad_template", wantErr: `property "event_time": `},
		{id: "convert_date_bad_zone", wantErr: `property "timezone": unknown time zone "Mars/Olympus_Mons"`},
	})
}

func TestDebugStreamConfig(t *testing.T) {
	derive := func(c *DebugStreamConfig) string { return fmt.Sprintf("%s %v", c.filterKey, c.filter) }
	checkConfigs(t, DebugStreamSpec(), derive, []configCase[DebugStreamConfig]{
		{id: "debug_stream_default", want: &DebugStreamConfig{Sample: 1}, derived: " <nil>"},
		{id: "debug_stream_full", want: &DebugStreamConfig{Sample: 10, Filter: `src_ip:^10\.`, Selection: []string{"src_ip", "http_status"}},
			derived: `src_ip ^10\.`},
		{id: "debug_stream_bad_filter", wantErr: `property "debug.filter": "src_ip" is not KEY:REGEX`},
	})
}

func TestEvaluateJsonPathConfig(t *testing.T) {
	derive := func(c *EvaluateJsonPathConfig) string {
		rules := describe(c.rules, func(r pathRule) string { return fmt.Sprintf("%s %s member=%q", r.field, r.path, r.member) })
		return fmt.Sprintf("%s all members=%v", rules, c.allMembers)
	}
	checkConfigs(t, EvaluateJsonPathSpec(), derive, []configCase[EvaluateJsonPathConfig]{
		{id: "evaluate_json_path_default", want: &EvaluateJsonPathConfig{ReturnType: "scalar", NotFound: "ignore", Input: "record_value", Paths: noKeys},
			derived: " all members=true"},
		{id: "evaluate_json_path_members", want: &EvaluateJsonPathConfig{ReturnType: "scalar", NotFound: "ignore", Input: "record_value",
			Paths: map[string]string{"a": "$.a", "b": "$['b']"}}, derived: `a $["a"] member="a"; b $["b"] member="b" all members=true`},
		{id: "evaluate_json_path_full", want: &EvaluateJsonPathConfig{ReturnType: "json", NotFound: "warn", Input: "doc",
			Paths: map[string]string{"req_path": "$.path", "first_id": "$.items[0].id"}},
			derived: `first_id $["items"][0]["id"] member=""; req_path $["path"] member="path" all members=false`},
		{id: "evaluate_json_path_bad_path", wantErr: `property "req_path": `},
	})
}

func TestFilterRecordsConfig(t *testing.T) {
	derive := func(c *FilterRecordsConfig) string {
		return describe(c.conds, func(k condition) string { return k.key })
	}
	checkConfigs(t, FilterRecordsSpec(), derive, []configCase[FilterRecordsConfig]{
		{id: "filter_records_none", wantErr: `give "field.value" or at least one condition as a dynamic key`},
		{id: "filter_records_by_type", want: &FilterRecordsConfig{Field: "record_type", Value: "apache_log", UseValue: true, Logic: "OR",
			KeepErrors: true, Conditions: noKeys}},
		// An empty field.value is a criterion: records whose field is empty.
		{id: "filter_records_empty_value", want: &FilterRecordsConfig{Field: "record_type", UseValue: true, Logic: "OR",
			KeepErrors: true, Conditions: noKeys}},
		{id: "filter_records_full", want: &FilterRecordsConfig{Field: "http_method", Value: "GET", UseValue: true, Logic: "AND",
			Conditions: map[string]string{"not_health": `http_query != "/health"`}}, derived: "not_health"},
		{id: "filter_records_bad_condition", wantErr: `property "not_server_error": column `},
	})
}

func TestFlatMapConfig(t *testing.T) {
	derive := func(c *FlatMapConfig) string { return fmt.Sprint(c.concat) }
	checkConfigs(t, FlatMapSpec(), derive, []configCase[FlatMapConfig]{
		{id: "flat_map_default", want: &FlatMapConfig{KeepRoot: true, CopyRoot: true, Separator: "/"}, derived: "map[]"},
		{id: "flat_map_full", want: &FlatMapConfig{LeafType: "leaf", ConcatFields: []string{"path", "name"}, Separator: "-"},
			derived: "map[name:true path:true]"},
		{id: "flat_map_bad_bool", wantErr: `property "keep.root.record": `},
	})
}

func TestMaskFieldsConfig(t *testing.T) {
	checkConfigs(t, MaskFieldsSpec(), nil, []configCase[MaskFieldsConfig]{
		{id: "mask_fields_none", wantErr: `give "hash.fields", "truncate.ip.fields" or both`},
		{id: "mask_fields_ip_only", want: &MaskFieldsConfig{IPFields: []string{"src_ip"}, IPv4Prefix: 24, IPv6Prefix: 48, CacheSize: 4096}},
		{id: "mask_fields_full", want: &MaskFieldsConfig{HashFields: []string{"user", "email"}, HashKey: "0123456789abcdef-key",
			IPFields: []string{"src_ip"}, IPv4Prefix: 16, IPv6Prefix: 64}},
		{id: "mask_fields_no_key", wantErr: `"hash.fields" needs "hash.key"`},
	})
}

func TestModifyIdConfig(t *testing.T) {
	derive := func(c *ModifyIdConfig) string { return fmt.Sprint(len(c.format)) }
	checkConfigs(t, ModifyIdSpec(), derive, []configCase[ModifyIdConfig]{
		{id: "modify_id_default", want: &ModifyIdConfig{Strategy: "randomUuid", Fields: []string{"record_value"}, Algorithm: "SHA-256",
			Charset: "UTF-8"}, derived: "0"},
		{id: "modify_id_from_fields", want: &ModifyIdConfig{Strategy: "fromFields", Fields: []string{"src_ip", "http_status"}, Algorithm: "MD5",
			Charset: "US-ASCII", Format: "%2$s-%1$s", FormatSet: true}, derived: "5"},
		{id: "modify_id_no_format", wantErr: `"java.formatter.string" must be set when strategy is fromFields`},
		{id: "modify_id_format_past_fields", wantErr: "format refers to field 2, but fields.to.hash names 1"},
	})
}

func TestNormalizeFieldsConfig(t *testing.T) {
	derive := func(c *NormalizeFieldsConfig) string { return fmt.Sprint(c.renames) }
	checkConfigs(t, NormalizeFieldsSpec(), derive, []configCase[NormalizeFieldsConfig]{
		{id: "normalize_fields_default", want: &NormalizeFieldsConfig{ConflictPolicy: ConflictPolicy{policyNothing}, Renames: noKeys}, derived: "[]"},
		{id: "normalize_fields_full", want: &NormalizeFieldsConfig{ConflictPolicy: ConflictPolicy{policyKeepBoth}, Renames: map[string]string{"client_ip": "src_ip, ip"}},
			derived: "[{client_ip [src_ip ip]}]"},
		{id: "normalize_fields_no_old_names", wantErr: `property "client_ip": must list at least one item`},
	})
}

func TestParsePropertiesConfig(t *testing.T) {
	checkConfigs(t, ParsePropertiesSpec(), nil, []configCase[ParsePropertiesConfig]{
		{id: "parse_properties_missing", wantErr: `missing required property "properties.field"`},
		{id: "parse_properties_minimal", want: &ParsePropertiesConfig{Field: "properties"}},
		{id: "parse_properties_keep", want: &ParsePropertiesConfig{Field: "props", Keep: true}},
	})
}

func TestRemoveFieldsConfig(t *testing.T) {
	derive := func(c *RemoveFieldsConfig) string { return fmt.Sprint(c.keep) }
	const exactlyOne = `give exactly one of "fields.to.remove" and "fields.to.keep"`
	checkConfigs(t, RemoveFieldsSpec(), derive, []configCase[RemoveFieldsConfig]{
		{id: "remove_fields_neither", wantErr: exactlyOne},
		{id: "remove_fields_both", wantErr: exactlyOne},
		{id: "remove_fields_remove", want: &RemoveFieldsConfig{Remove: []string{"policyid", "date_raw"}}, derived: "map[]"},
		{id: "remove_fields_keep", want: &RemoveFieldsConfig{Keep: []string{"src_ip", "http_status"}}, derived: "map[http_status:true src_ip:true]"},
	})
}

func TestRouteRecordsConfig(t *testing.T) {
	derive := func(c *RouteRecordsConfig) string {
		return fmt.Sprintf("expression=%v known=%q", c.prog != nil, c.known)
	}
	const exactlyOne = `give exactly one of "output.topic.field" and "output.topic.expression"`
	checkConfigs(t, RouteRecordsSpec(), derive, []configCase[RouteRecordsConfig]{
		{id: "route_records_neither", wantErr: exactlyOne},
		{id: "route_records_both", wantErr: exactlyOne},
		{id: "route_records_field", want: &RouteRecordsConfig{Field: "kafka_topic", FieldSet: true}, derived: "expression=false known=[]"},
		{id: "route_records_constant", want: &RouteRecordsConfig{Expression: `"all_logs"`, ExpressionSet: true, Default: "other_logs",
			Known: []string{"logs_5xx", "logs"}}, derived: `expression=true known=["all_logs" "other_logs" "logs_5xx" "logs"]`},
		{id: "route_records_expression", want: &RouteRecordsConfig{Expression: `http_status >= 500 ? "logs_5xx" : "logs"`, ExpressionSet: true},
			derived: "expression=true known=[]"},
		{id: "route_records_bad_constant", wantErr: `property "output.topic.expression": topic name "all logs" has the character ' '`},
	})
}

func TestSetJsonAsFieldsConfig(t *testing.T) {
	checkConfigs(t, SetJsonAsFieldsSpec(), nil, []configCase[SetJsonAsFieldsConfig]{
		{id: "set_json_as_fields_default", want: &SetJsonAsFieldsConfig{Field: "record_value", Overwrite: true}},
		{id: "set_json_as_fields_full", want: &SetJsonAsFieldsConfig{Field: "payload", Keep: true, OmitNull: true, OmitEmpty: true}},
	})
}

func TestSplitFieldConfig(t *testing.T) {
	derive := func(c *SplitFieldConfig) string {
		return describe(c.rules, func(r splitRule) string {
			return fmt.Sprintf("%s->%s sep=%q pattern=%v counter=%s", r.source, r.target, r.sep, r.pattern != nil, r.counterName)
		})
	}
	checkConfigs(t, SplitFieldSpec(), derive, []configCase[SplitFieldConfig]{
		{id: "split_field_default", want: &SplitFieldConfig{Limit: 10, CounterSuffix: "Counter", ConflictPolicy: ConflictPolicy{policyKeepOld}, Splits: noKeys}},
		{id: "split_field_full", want: &SplitFieldConfig{Limit: 3, Counter: true, CounterSuffix: "_count", ConflictPolicy: ConflictPolicy{policyOverwrite},
			Splits: map[string]string{"description": `textArray:\s*,\s*`, "src_ip": `ip_parts:\.`}},
			derived: `description->textArray sep="" pattern=true counter=textArray_count; src_ip->ip_parts sep="" pattern=true counter=ip_parts_count`},
		{id: "split_field_no_target", wantErr: `property "description": "\\s*,\\s*" is not TARGET:REGEX`},
		{id: "split_field_bad_regex", wantErr: `property "description": invalid regular expression`},
		// Every bad rule is reported, as for the other free-form keys.
		{id: "split_field_two_bad", wantErr: `property "description": "\\s*,\\s*" is not TARGET:REGEX` + "\n" + `  property "src_ip": invalid regular expression`},
	})
}

func TestURLDecoderConfig(t *testing.T) {
	checkConfigs(t, URLDecoderSpec(), nil, []configCase[URLDecoderConfig]{
		{id: "url_decoder_missing", wantErr: `missing required property "decode.fields"`},
		{id: "url_decoder_full", want: &URLDecoderConfig{Fields: []string{"http_query", "referer"}, Charset: "latin1"}},
		{id: "url_decoder_bad_charset", wantErr: `property "charset": charset "EBCDIC" is not one of UTF-8, ISO-8859-1, US-ASCII`},
	})
}
