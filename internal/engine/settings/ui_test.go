package settings

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
)

// TestUISettings decodes the status server's keys, refuses half of a pair,
// and never puts the password in the settings' JSON (shown on /api/status).
func TestUISettings(t *testing.T) {
	spec := Spec()
	conf, probs := component.NewConfig(&spec, map[string]string{
		KeyUIBindAddress: "127.0.0.1", KeyUIProfiling: "true", KeyUIUsername: "ops", KeyUIPassword: "ui-Secret-99",
	})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	s, err := Decode(conf)
	if err != nil {
		t.Fatal(err)
	}
	if s.UI.BindAddress != "127.0.0.1" || !s.UI.Profiling || s.UI.Username != "ops" || s.UI.Password != "ui-Secret-99" {
		t.Errorf("decoded %+v", s.UI)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "ui-Secret-99") {
		t.Errorf("settings JSON shows the password: %s", b)
	}
	if _, probs := component.NewConfig(&spec, map[string]string{KeyUIUsername: "ops"}); len(probs) == 0 || !strings.Contains(probs.Error(), KeyUIPassword) {
		t.Errorf("user without password: %v", probs)
	}
	if _, probs := component.NewConfig(&spec, map[string]string{KeyUIBindAddress: "0.0.0.0:80"}); len(probs) == 0 {
		t.Error("a bind address with a port was accepted")
	}
}
