package dataflow

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckRemote(t *testing.T) {
	top := t.TempDir()
	allowed := filepath.Join(top, "allowed")
	outside := filepath.Join(top, "outside")
	for _, d := range []string{allowed, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A link under the allowed directory that leads out of it.
	if err := os.Symlink(outside, filepath.Join(allowed, "link")); err != nil {
		t.Fatal(err)
	}
	pol := RemotePolicy{AllowedPaths: []string{allowed}}
	cases := []struct {
		key, value string
		ok         bool
	}{
		{"grok.patterns.dir", filepath.Join(allowed, "patterns"), true},
		{"grok.patterns.dir", filepath.Join(allowed, "a") + "," + filepath.Join(allowed, "b"), true},
		{"grok.patterns.dir", filepath.Join(allowed, "a") + "," + filepath.Join(outside, "b"), false},
		{"grok.patterns.dir", filepath.Join(allowed, "..", "outside", "x"), false},
		{"grok.patterns.dir", filepath.Join(allowed, "link", "x"), false},
		{"grok.patterns.dir", "relative/patterns", false},
		{"grok.patterns.dir", allowed + "-sibling/x", false},
		{"broker.ssl.ca.location", "/etc/ssl/ca.pem", false},
		{"broker.sasl.oauthbearer.token.location", "/etc/shadow", false},
		{"remote.api.tls.cert.file", "/etc/x", false},
		{"maxmind.database.path", "stand-in", true},
		{"grok.patterns.dir", "stand-in", false}, // a relative path there
		{"maxmind.database.path", "/dev/zero", false},
		{"maxmind.database.uri", "file://" + filepath.Join(allowed, "geo.mmdb"), true},
		{"maxmind.database.uri", "file:///etc/geo.mmdb", false},
		{"maxmind.database.uri", "hdfs://namenode/geo.mmdb", false},
		{"Some.Plugin.Key.FILE", "/etc/passwd", false},
		{"broker.ssl.ca.location", "", true},
		{"docdb.uri", "mongodb://u:p@db/?tls=true&tlsCAFile=/etc/shadow", false},
		{"docdb.uri", "mongodb://u:p@db/?tls=true&tlsCAFile=" + filepath.Join(allowed, "ca.pem"), true},
		{"docdb.uri", "mongodb://u:p@db/?w=1", true},
		{"value.regex", "/etc/shadow", true}, // names no file
		{"broker.metadata.broker.list", "embedded", false},
		{"broker.metadata.broker.list", "127.0.0.1:9092, Embedded", false},
		{"broker.metadata.broker.list", "127.0.0.1:9092", true},
	}
	for _, c := range cases {
		df := &DataFlow{Streams: []Stream{{Component: Component{Name: "s", Component: "x",
			Config: []Property{{Key: c.key, Value: c.value}}}}}}
		probs := CheckRemote(df, pol)
		if (len(probs) == 0) != c.ok {
			t.Errorf("%s=%s: problems %v, want ok=%v", c.key, c.value, probs, c.ok)
			continue
		}
		for _, p := range probs {
			msg := p.String()
			leaks := c.value != "" && c.key != "broker.metadata.broker.list" && strings.Contains(msg, c.value)
			if !strings.Contains(msg, c.key) || leaks || strings.Contains(msg, top) {
				t.Errorf("%s=%s: the refusal must name the key and not the value: %s", c.key, c.value, msg)
			}
		}
	}
	// With nothing allowed, every path is refused; embedded when allowed passes.
	df := &DataFlow{Services: []Component{{Name: "svc", Component: "x", Config: []Property{{Key: "tls.ca.file", Value: filepath.Join(allowed, "ca")}}}},
		Streams: []Stream{{Component: Component{Name: "s", Component: "x", Config: []Property{{Key: "broker.metadata.broker.list", Value: "embedded"}}}}}}
	if probs := CheckRemote(df, RemotePolicy{}); len(probs) != 2 || !strings.Contains(probs.Error(), "allows none") || !strings.Contains(probs.Error(), KeyAllowedEmbedded) {
		t.Errorf("nothing allowed: %v", probs)
	}
	if probs := CheckRemote(df, RemotePolicy{AllowedPaths: []string{allowed}, AllowEmbedded: true}); len(probs) != 0 {
		t.Errorf("all allowed: %v", probs)
	}
}
