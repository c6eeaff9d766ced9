package fields_test

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"testing"

	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/record"
)

func TestModifyId(t *testing.T) {
	sum := sha256.Sum256([]byte("a1b2"))
	digest := hex.EncodeToString(sum[:])
	for _, tt := range []struct {
		name  string
		props map[string]string
		want  string
	}{
		{"hashFields", map[string]string{"id.generation.strategy": "hashFields", "fields.to.hash": "f1,f2"}, digest},
		{"fromFields", map[string]string{"id.generation.strategy": "fromFields", "fields.to.hash": "f1,f2", "java.formatter.string": "%2$s-%1$s-%%"}, "a2b2-a1b-%"},
		{"fromFields in order", map[string]string{"id.generation.strategy": "fromFields", "fields.to.hash": "f1,f2", "java.formatter.string": "%s/%s"}, "a1b/a2b2"},
		{"typetimehash", map[string]string{"id.generation.strategy": "typetimehash", "fields.to.hash": "f1,f2"}, "t-1000-" + digest},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := build(t, fields.ModifyIdSpec(), tt.props)
			r := rec("f1", "a1", "f2", "b2", record.FieldTime, 1000)
			if tt.name == "fromFields" || tt.name == "fromFields in order" {
				r = rec("f1", "a1b", "f2", "a2b2")
			}
			out := process(t, p, r)
			if out[0].ID != tt.want {
				t.Errorf("id = %s, want %s", out[0].ID, tt.want)
			}
			if s, _ := out[0].GetString(record.FieldID); s != tt.want {
				t.Errorf("record_id = %s", s)
			}
		})
	}
	p, _ := build(t, fields.ModifyIdSpec(), map[string]string{})
	out := process(t, p, rec())
	if !regexp.MustCompile(`^[0-9a-f-]{36}$`).MatchString(out[0].ID) {
		t.Errorf("random id = %s", out[0].ID)
	}
	p, _ = build(t, fields.ModifyIdSpec(), map[string]string{"id.generation.strategy": "fromFields", "fields.to.hash": "f1", "java.formatter.string": "%s"})
	if out := process(t, p, rec()); !out[0].HasErrors() {
		t.Error("a missing field gave no error")
	}
	buildErr(t, fields.ModifyIdSpec(), map[string]string{"id.generation.strategy": "fromFields", "fields.to.hash": "f1", "java.formatter.string": "%2$s"})
	buildErr(t, fields.ModifyIdSpec(), map[string]string{"id.generation.strategy": "fromFields", "fields.to.hash": "f1", "java.formatter.string": "%5.2f"})
}
