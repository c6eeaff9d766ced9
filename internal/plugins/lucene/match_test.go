package lucene_test

import (
	"context"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/lucene"
	"github.com/weir-streams/weir/internal/record"
)

func build(t *testing.T, spec component.Spec, props map[string]string) component.Processor {
	t.Helper()
	p, err := tryBuild(spec, props)
	if err != nil {
		t.Fatalf("build %s with %v: %v", spec.Name, props, err)
	}
	return p
}

func tryBuild(spec component.Spec, props map[string]string) (component.Processor, error) {
	conf, probs := component.NewConfig(&spec, props)
	if len(probs) > 0 {
		return nil, probs
	}
	return spec.NewProcessor(conf, component.Env{Name: "p", Stream: "s"})
}

// rec builds a record with an id and string fields, or int and float ones.
func rec(id string, kv ...any) *record.Record {
	r := record.New(id, "exception", 0)
	for i := 0; i+1 < len(kv); i += 2 {
		switch v := kv[i+1].(type) {
		case string:
			r.SetString(kv[i].(string), v)
		case int:
			r.Set(kv[i].(string), record.IntValue(int64(v)))
		case float64:
			r.Set(kv[i].(string), record.FloatValue(v))
		}
	}
	return r
}

func run(t *testing.T, p component.Processor, recs ...*record.Record) []*record.Record {
	t.Helper()
	b := &component.Batch{Records: recs}
	if err := p.Process(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	return b.Records
}

// describe renders each output record as id:type:names.
func describe(out []*record.Record) string {
	var parts []string
	for _, r := range out {
		name := "-"
		if v, ok := r.Get(lucene.FieldMatchName); ok {
			name = v.Text()
		}
		parts = append(parts, r.ID+":"+r.Type+":"+name)
	}
	return strings.Join(parts, " ")
}

// The four records of LogIsland's MatchQueryTest policy tests.
func policyRecords() []*record.Record {
	return []*record.Record{
		rec("id1", "exception", "miss", "message", "miss"),
		rec("id2", "exception", "miss", "message", "match"),
		rec("id3", "exception", "match", "message", "miss"),
		rec("id4", "exception", "match", "message", "match"),
	}
}

// TestMatchQuery replays LogIsland's MatchQueryTest: same queries, same
// records, same counts.
func TestMatchQuery(t *testing.T) {
	exc := func() []*record.Record {
		return []*record.Record{
			rec("id1", "exception", "NullPointerException", "message", "something good", "average_bytes", 12.4, "exception_count", 345),
			rec("id2", "exception", "IllegalStateException", "message", "something wrong", "average_bytes", 123.4, "exception_count", 1345),
			rec("id3", "exception", "TooManyAttemptsException", "message", "oh bad boy!", "average_bytes", 3412.4, "exception_count", 3450),
		}
	}
	both := map[string]string{"match_exception": "exception:match", "match_message": "message:match"}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{"match_exception": "exception:match", "match_message": "message:match"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	for _, tt := range []struct {
		name  string
		props map[string]string
		in    []*record.Record
		want  string
	}{
		{"word in a field", map[string]string{"too_many": "exception:TooManyAttemptsException", "some_message": "message:wrong"}, exc(),
			"id2:alert_match:some_message id3:alert_match:too_many"},
		{"words split on punctuation", map[string]string{"sushi": "exception:(+too +many +sushi)"},
			[]*record.Record{rec("a", "exception", "NullPointerException"), rec("b", "exception", "too.many.sushi"), rec("c", "exception", "too.many.attempts")},
			"b:alert_match:sushi"},
		{"numeric ranges", map[string]string{"numeric.fields": "exception_count,average_bytes", "too_many_exceptions": "exception_count:[346 TO 2000]", "too_many_bytes": "average_bytes:[100 TO 50000]"}, exc(),
			"id2:alert_match:too_many_bytes id2:alert_match:too_many_exceptions id3:alert_match:too_many_bytes"},
		{"numbers without numeric.fields match no range", map[string]string{"r": "exception_count:[346 TO 2000]"}, exc(), ""},
		{"legacy: a copy per query", both, policyRecords(),
			"id2:alert_match:match_message id3:alert_match:match_exception id4:alert_match:match_exception id4:alert_match:match_message"},
		{"first, forward", with(map[string]string{"policy.onmiss": "forward"}), policyRecords(),
			"id1:exception:- id2:alert_match:match_message id3:alert_match:match_exception id4:alert_match:match_exception id4:alert_match:match_message"},
		{"all, discard", with(map[string]string{"policy.onmatch": "all"}), policyRecords(),
			`id2:alert_match:["match_message"] id3:alert_match:["match_exception"] id4:alert_match:["match_exception","match_message"]`},
		{"all, forward, keep type", with(map[string]string{"policy.onmatch": "all", "policy.onmiss": "forward", "record.type.updatePolicy": "keep"}), policyRecords(),
			`id1:exception:- id2:exception:["match_message"] id3:exception:["match_exception"] id4:exception:["match_exception","match_message"]`},
		{"no query, forward", map[string]string{"policy.onmiss": "forward"}, policyRecords(), "id1:exception:- id2:exception:- id3:exception:- id4:exception:-"},
		{"pipe splits the term", map[string]string{"policy.onmiss": "forward", "too_many": "exception:TooManyAttemptsException", "some_message": "message:(good|wrong)"},
			exc()[:2], "id1:alert_match:some_message id2:alert_match:some_message"},
		{"output type", map[string]string{"output.record.type": "threshold_alert", "q": "message:bad"}, exc(), "id3:threshold_alert:q"},
		// LogIsland's match-queries.yml.
		{"match-queries.yml", map[string]string{"policy.onmiss": "forward", "policy.onmatch": "all", "record.type.updatePolicy": "keep",
			"blacklisted_host": "src_ip:(+alyssa +prodigy)", "montana_host": "src_ip:montana"},
			[]*record.Record{rec("a", "src_ip", "alyssa.prodigy.net"), rec("b", "src_ip", "montana.example.com"), rec("c", "src_ip", "alyssa.example.com"), rec("d", "src_ip", "10.0.0.1")},
			`a:exception:["blacklisted_host"] b:exception:["montana_host"] c:exception:- d:exception:-`},
		// Bad input: fields of every kind, none of which breaks matching.
		{"odd values", map[string]string{"policy.onmiss": "forward", "q": "message:true"},
			[]*record.Record{func() *record.Record { r := rec("x"); r.Set("message", record.BoolValue(true)); return r }(), rec("y", "message", ""), rec("z")},
			"x:alert_match:q y:exception:- z:exception:-"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := run(t, build(t, lucene.MatchQuerySpec(), tt.props), tt.in...)
			if got := describe(out); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestMatchQueryRefusesBadQueries(t *testing.T) {
	for _, q := range []string{"a:(b", `a:"b`, "a:[1 TO", "a:b~2", "a:/re/", "a:[1 2]"} {
		_, err := tryBuild(lucene.MatchQuerySpec(), map[string]string{"bad": q})
		if err == nil || !strings.Contains(err.Error(), `"bad"`) {
			t.Errorf("%q: error %v, want one naming the key", q, err)
		}
	}
}

// TestMatchIP replays LogIsland's MatchIPTest and rules of its
// webanalytics.yml job file.
func TestMatchIP(t *testing.T) {
	hosts := func(ips ...string) []*record.Record {
		var out []*record.Record
		for i, ip := range ips {
			out = append(out, rec("id"+string(rune('1'+i)), "remoteHost", ip))
		}
		return out
	}
	for _, tt := range []struct {
		name  string
		props map[string]string
		in    []*record.Record
		want  string
	}{
		{"regular expressions that match nothing", map[string]string{"too_many": "exception:TooManyAttemptsException", "some_message": "message:wrong"},
			[]*record.Record{rec("id1", "exception", "NullPointerException", "message", "something good"), rec("id2", "exception", "BadBoyException", "message", "oh bad boy!")}, ""},
		{"addresses", map[string]string{"g1": "remoteHost:192.168.1.2", "g2": "remoteHost:192.168.1.16", "record.type.updatePolicy": "keep"},
			hosts("192.168.1.16", "192.168.1.2", "192.168.1.27"), "id1:exception:g2 id2:exception:g1"},
		{"cidr", map[string]string{"internal": "remoteHost:192.168.1.1/27"},
			hosts("127.0.0.1", "192.168.1.1", "192.168.1.5", "192.168.1.31", "192.168.1.0"), "id2:alert_match:internal id3:alert_match:internal"},
		{"regular expression", map[string]string{"internal": "remoteHost:192.168.1.[1-9]$"},
			hosts("192.168.1.10", "192.168.1.1", "192.168.1.5"), "id2:alert_match:internal id3:alert_match:internal"},
		{"webanalytics.yml rules", map[string]string{"policy.onmiss": "forward", "policy.onmatch": "first", "record.type.updatePolicy": "keep",
			"internal_traffic_iph_1": "remoteHost:62.23.167.200/29", "internal_traffic_iph_9": "remoteHost:194.123.34.17[6-9]",
			"internal_traffic_iph_31": "remoteHost:192.168", "internal_traffic_iph_41": "remoteHost:192.168.0.([0-9]|1[0-6])",
			"internal_traffic_hurence": "remoteHost:80.14.66.205"},
			hosts("62.23.167.203", "194.123.34.177", "192.168.0.5", "80.14.66.205", "8.8.8.8", "62.23.167.200", "not an ip"),
			"id1:exception:internal_traffic_iph_1 id2:exception:internal_traffic_iph_9 id3:exception:internal_traffic_iph_31 " +
				"id3:exception:internal_traffic_iph_41 id4:exception:internal_traffic_hurence id5:exception:- id6:exception:- id7:exception:-"},
		{"a regular expression is not tried after an address matched", map[string]string{"policy.onmatch": "all", "a": "remoteHost:10.0.0.0/8", "b": "remoteHost:10\\."},
			hosts("10.1.2.3", "10.0.0.0"), `id1:alert_match:["a"] id2:alert_match:["b"]`},
		{"a /32 holds no host, as SubnetUtils counts", map[string]string{"one": "remoteHost:10.0.0.1/32"}, hosts("10.0.0.1", "0.0.0.0"), "id2:alert_match:one"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := run(t, build(t, lucene.MatchIPSpec(), tt.props), tt.in...)
			if got := describe(out); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
	for _, bad := range []string{"no colon", "f:(unclosed", "f:1.2.3.4/40"} {
		if _, err := tryBuild(lucene.MatchIPSpec(), map[string]string{"r": bad}); err == nil || !strings.Contains(err.Error(), `"r"`) {
			t.Errorf("%q: error %v", bad, err)
		}
	}
}
