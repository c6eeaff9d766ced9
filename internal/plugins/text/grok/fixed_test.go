package grok_test

import (
	"testing"

	"github.com/elastic/go-grok/patterns"
	"github.com/weir-streams/weir/internal/plugins/text/grok"
)

func TestFixedOriginals(t *testing.T) {
	for name, f := range grok.Fixed {
		var got string
		for _, s := range []map[string]string{patterns.Default, patterns.Syslog, patterns.Firewalls, patterns.Httpd} {
			if d, ok := s[name]; ok {
				got = d
			}
		}
		if got != f.Original {
			t.Errorf("%s: go-grok has %q, Fixed says %q", name, got, f.Original)
		}
	}
}
