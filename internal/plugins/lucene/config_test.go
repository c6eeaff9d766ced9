package lucene

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component/configtest"
)

var defaultPolicies = Policies{OutputType: "alert_match", TypePolicy: typeOverwrite, OnMatch: onMatchFirst, OnMiss: onMissDrop}

// TestMatchQueryConfig decodes MatchQuery's configurations from testdata:
// the policies, the queries as given and the rules Validate parsed from
// them, in name order.
func TestMatchQueryConfig(t *testing.T) {
	for _, tt := range []struct {
		id, rules, wantErr string
		want               *MatchQueryConfig
	}{
		{id: "query_defaults", want: &MatchQueryConfig{Policies: defaultPolicies, Queries: map[string]string{"too_many_errors": "status:[500 TO 599]"}},
			rules: "too_many_errors=query(status:[500 TO 599])"},
		{id: "query_full", want: &MatchQueryConfig{
			Policies: Policies{NumericFields: []string{"bytes_out", "status"}, OutputType: "security_alert", TypePolicy: typeKeep, OnMatch: onMatchAll, OnMiss: onMissFwd},
			Queries:  map[string]string{"big_upload": "bytes_out:[5000 TO *]", "login": "user:root AND NOT host:bastion*"}},
			rules: "big_upload=query(bytes_out:[5000 TO *]) login=query(user:root AND NOT host:bastion*)"},
		// Both bad queries are reported, each under its key.
		{id: "query_bad", wantErr: `property "open_range"`},
		{id: "query_bad", wantErr: `property "unclosed"`},
	} {
		t.Run(tt.id, func(t *testing.T) {
			got, err := configtest.Decode[MatchQueryConfig](MatchQuerySpec(), "testdata/config.yaml", tt.id)
			if !wantError(t, err, tt.wantErr) {
				return
			}
			if rules := describeRules(got.rules); rules != tt.rules {
				t.Errorf("rules %s, want %s", rules, tt.rules)
			}
			got.rules = nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decoded\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

// TestMatchIPConfig decodes MatchIP's configurations from testdata: the
// address and CIDR rules become host ranges, the others regular
// expressions anchored at the start.
func TestMatchIPConfig(t *testing.T) {
	for _, tt := range []struct {
		id, rules, reRules, wantErr string
		want                        *MatchIPConfig
	}{
		{id: "ip_rules", want: &MatchIPConfig{Policies: Policies{OutputType: "alert_match", TypePolicy: typeKeep, OnMatch: onMatchFirst, OnMiss: onMissFwd},
			Rules: map[string]string{"internal_traffic_iph_1": "remoteHost:62.23.167.200/29", "internal_traffic_iph_9": "remoteHost:194.123.34.17[6-9]",
				"internal_traffic_hurence": "remoteHost:80.14.66.205"}},
			rules:   "internal_traffic_hurence=ip(remoteHost:1343111885-1343111885) internal_traffic_iph_1=ip(remoteHost:1041737673-1041737678)",
			reRules: "internal_traffic_iph_9=re(remoteHost:^(?:194.123.34.17[6-9]))"},
		{id: "ip_no_field", wantErr: `property "r": "no colon" is not FIELD:ADDRESS, FIELD:CIDR or FIELD:REGEX`},
		{id: "ip_bad_cidr", wantErr: `property "r": "1.2.3.4/40" is not a CIDR block`},
		{id: "ip_bad_regex", wantErr: `property "r": invalid regular expression`},
	} {
		t.Run(tt.id, func(t *testing.T) {
			got, err := configtest.Decode[MatchIPConfig](MatchIPSpec(), "testdata/config.yaml", tt.id)
			if !wantError(t, err, tt.wantErr) {
				return
			}
			if rules, re := describeRules(got.rules), describeRules(got.reRules); rules != tt.rules || re != tt.reRules {
				t.Errorf("rules %s and %s, want %s and %s", rules, re, tt.rules, tt.reRules)
			}
			got.rules, got.reRules = nil, nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decoded\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

// wantError checks err against want, an expected part of the message or
// "" for none, and reports whether the decoded configuration is to be
// compared.
func wantError(t *testing.T, err error, want string) bool {
	t.Helper()
	if want != "" {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error %v, want one containing %q", err, want)
		}
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	return true
}

// describeRules writes rules as name=kind(what it matches), in order.
func describeRules(rules []rule) string {
	var parts []string
	for _, r := range rules {
		switch {
		case r.ipRe != nil:
			parts = append(parts, fmt.Sprintf("%s=re(%s:%s)", r.name, r.ipField, r.ipRe))
		case r.isIP:
			parts = append(parts, fmt.Sprintf("%s=ip(%s:%d-%d)", r.name, r.ipField, r.ipLo, r.ipHi))
		default:
			parts = append(parts, fmt.Sprintf("%s=query(%s)", r.name, r.query))
		}
	}
	return strings.Join(parts, " ")
}
