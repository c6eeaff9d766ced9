package grok_test

import (
	"testing"

	"github.com/weir-streams/weir/internal/plugins/text/grok"
)

func TestFixedOriginals(t *testing.T) {
	for name, f := range grok.Fixed {
		var got string
		for _, s := range grok.Sets {
			if d, ok := s.Patterns[name]; ok {
				got = d
			}
		}
		if got != f.Original {
			t.Errorf("%s: go-grok has %q, Fixed says %q", name, got, f.Original)
		}
	}
}
