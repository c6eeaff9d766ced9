package component

import (
	"strings"
	"testing"
)

// TestSensitiveValueNotInProblem: a validator that quotes the value it
// refuses does not show a sensitive one.
func TestSensitiveValueNotInProblem(t *testing.T) {
	quoting := NewValidator("anything", func(s string) error { return errorString("bad value " + s) })
	spec := &Spec{Name: "x", Properties: []Property{
		{Key: "secret", Sensitive: true, Validator: quoting},
		{Key: "plain", Validator: quoting},
	}}
	_, probs := NewConfig(spec, map[string]string{"secret": "hunter2-secret", "plain": "shown"})
	msg := probs.Error()
	if strings.Contains(msg, "hunter2-secret") || !strings.Contains(msg, "bad value "+Redacted) {
		t.Errorf("problems %q: want the sensitive value redacted", msg)
	}
	if !strings.Contains(msg, "bad value shown") {
		t.Errorf("problems %q: want the other value quoted", msg)
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }
