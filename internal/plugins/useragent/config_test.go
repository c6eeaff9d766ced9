package useragent

import (
	"reflect"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component/configtest"
	"github.com/weir-streams/weir/internal/plugins/useragent/uaparse"
)

// TestParseUserAgentConfig decodes ParseUserAgent's configurations from
// testdata: the attribute names are resolved at validation, each once.
func TestParseUserAgentConfig(t *testing.T) {
	var every []uaparse.Attribute
	for _, n := range uaparse.AttributeNames() {
		a, _ := uaparse.AttributeOf(n)
		every = append(every, a)
	}
	attr := func(name string) uaparse.Attribute { a, _ := uaparse.AttributeOf(name); return a }
	for _, tt := range []struct {
		id      string
		want    *ParseUserAgentConfig
		wantErr string
	}{
		{id: "ua_defaults", want: &ParseUserAgentConfig{Field: "http_user_agent", Keep: true, CacheSize: DefaultCacheSize, attrs: every}},
		{id: "ua_full", want: &ParseUserAgentConfig{Field: "ua", Fields: []string{"DeviceClass", "AgentName", "AgentName"},
			attrs: []uaparse.Attribute{attr("DeviceClass"), attr("AgentName")}}},
		{id: "ua_unknown_attribute", wantErr: `property "fields": "AgentNmae" is not a user-agent attribute (did you mean "AgentName"?)`},
		{id: "ua_cache_too_big", wantErr: `property "cache.size"`},
		{id: "ua_no_field", wantErr: `missing required property "useragent.field"`},
	} {
		got, err := configtest.Decode[ParseUserAgentConfig](ParseUserAgentSpec(), "testdata/config.yaml", tt.id)
		switch {
		case tt.wantErr == "" && (err != nil || !reflect.DeepEqual(got, tt.want)):
			t.Errorf("%s: %+v, %v; want %+v", tt.id, got, err, tt.want)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: error %v, want one containing %q", tt.id, err, tt.wantErr)
		}
	}
}
