package bro_test

import (
	"context"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/bro"
	"github.com/weir-streams/weir/internal/record"
)

// Events of LogIsland's ParseBroEventTest.
const (
	connEvent = `{"conn": {"ts": 1487603366.277002, "uid": "Coo3g71UUMM2AyxWB", "id.orig_h": "172.17.0.3", "id.orig_p": 9200,
		"id.resp_h": "172.17.0.2", "id.resp_p": 42770, "proto": "tcp", "conn_state": "OTH", "local_orig": true, "local_resp": true,
		"missed_bytes": 0, "history": "Cc", "orig_pkts": 0, "orig_ip_bytes": 0, "resp_pkts": 0, "resp_ip_bytes": 0, "tunnel_parents": []}}`
	dnsEvent = `{"dns": {"ts": 1487603382.840372, "uid": "Csevsb0Kzff0gvXDe", "id.orig_h": "172.17.0.3", "id.orig_p": 49215,
		"id.resp_h": "8.8.8.8", "id.resp_p": 53, "proto": "udp", "trans_id": 26310, "query": "www.yahoo.fr", "rcode": 0,
		"rcode_name": "NOERROR", "AA": false, "TC": false, "RD": false, "RA": false, "Z": 0,
		"answers": ["rc.yahoo.com","src.g03.yahoodns.net","77.238.184.150"], "TTLs": [17.0,17.0,17.0], "rejected": false}}`
	noticeEvent = `{"notice": {"ts": 1320435875.879278, "note": "SSH::Password_Guessing",
		"msg": "172.16.238.1 appears to be guessing SSH passwords (seen in 30 connections).", "src": "172.16.238.1",
		"peer_descr": "bro", "actions": ["Notice::ACTION_LOG"], "suppress_for": 3600.0, "dropped": false}}`
	deepEvent = `{"fake": {"ts": 27.3, "uid": "anId", "level.a1": {"level.a2a": "level.a2a.value", "level.a2b": "level.a2b.value"},
		"int": 123, "level.b1": {"level.b2a": {"level.b3a": "level.b3a.value", "level.b3b": "level.b3b.value"},
		"level.b2b": ["level.b2b.value1", "level.b2b.value2"]}, "booleanT": true, "booleanF": false, "float": 123.456, "long": 32345678910}}`
)

func build(t *testing.T, props map[string]string) component.Processor {
	t.Helper()
	spec := bro.ParseBroEventSpec()
	conf, probs := component.NewConfig(&spec, props)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	p, err := spec.NewProcessor(conf, component.Env{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func parse(t *testing.T, p component.Processor, value string) *record.Record {
	t.Helper()
	r := record.New("id", "bro_event", 0)
	r.SetString(record.FieldKey, "k")
	r.SetString(record.FieldValue, value)
	b := &component.Batch{Records: []*record.Record{r}}
	if err := p.Process(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	if len(b.Records) != 1 {
		t.Fatalf("%d records", len(b.Records))
	}
	return b.Records[0]
}

func TestParseBroEvent(t *testing.T) {
	p := build(t, nil)
	for _, tt := range []struct {
		event, typ string
		want       map[string]string // field -> JSON
	}{
		{connEvent, "conn", map[string]string{"ts": "1487603366277", "id_orig_h": `"172.17.0.3"`, "id_orig_p": "9200", "local_orig": "true", "tunnel_parents": "[]", "conn_state": `"OTH"`}},
		{dnsEvent, "dns", map[string]string{"ts": "1487603382840", "id_resp_p": "53", "AA": "false", "answers": `["rc.yahoo.com","src.g03.yahoodns.net","77.238.184.150"]`, "TTLs": "[17,17,17]"}},
		{noticeEvent, "notice", map[string]string{"ts": "1320435875879", "note": `"SSH::Password_Guessing"`, "suppress_for": "3600", "dropped": "false"}},
		{deepEvent, "fake", map[string]string{"ts": "27300", "int": "123", "float": "123.456", "long": "32345678910", "booleanT": "true",
			"level_a1": `{"level_a2a":"level.a2a.value","level_a2b":"level.a2b.value"}`,
			"level_b1": `{"level_b2a":{"level_b3a":"level.b3a.value","level_b3b":"level.b3b.value"},"level_b2b":["level.b2b.value1","level.b2b.value2"]}`}},
		{`{"fake": {"ts": 1487603382.840372, "version": "versionString1"}}`, "fake", map[string]string{"version": `"versionString1"`}},
		{`{"fake": {"ts": 1487603382.840372, "version": 12}}`, "fake", map[string]string{"version": `"12"`}},
		{`{"fake": {"ts": 1487603382.840372, "version": 123456.789}}`, "fake", map[string]string{"version": `"123456.789"`}},
	} {
		r := parse(t, p, tt.event)
		if r.HasErrors() || r.Type != tt.typ {
			t.Errorf("%s: type %q, errors %v", tt.typ, r.Type, r.Errors())
			continue
		}
		for k, want := range tt.want {
			v, ok := r.Get(k)
			if got := v.String(); !ok || got != want {
				t.Errorf("%s: %s = %s, want %s", tt.typ, k, got, want)
			}
		}
		if r.Has(record.FieldValue) || r.Has(record.FieldKey) {
			t.Errorf("%s: record_value or record_key kept", tt.typ)
		}
	}

	// debug keeps the event, normalized, in record_value.
	r := parse(t, build(t, map[string]string{"debug": "true"}), connEvent)
	if k, _ := r.GetString(record.FieldKey); k != "bro_event_raw" {
		t.Errorf("debug: record_key %q", k)
	}
	if v, _ := r.Get(record.FieldValue); !strings.Contains(v.String(), `"id_orig_h":"172.17.0.3"`) {
		t.Errorf("debug: record_value %s", v.String())
	}
}

// Bad input: an error record with the reason, the raw value kept.
func TestParseBroEventBadInput(t *testing.T) {
	p := build(t, nil)
	for value, want := range map[string]string{
		"not json":                "not a JSON object",
		"{}":                      "has 0",
		`{"conn": {}, "dns": {}}`: "has 2",
		`{"conn": "text"}`:        `"conn" event is not a JSON object`,
		`[1,2]`:                   "not a JSON object",
	} {
		r := parse(t, p, value)
		errs := strings.Join(r.Errors(), ";")
		if !strings.Contains(errs, bro.ErrBroEvent) || !strings.Contains(errs, want) {
			t.Errorf("%q: errors %q, want %q", value, errs, want)
		}
		if v, _ := r.GetString(record.FieldValue); v != value {
			t.Errorf("%q: record_value became %q", value, v)
		}
	}
}
