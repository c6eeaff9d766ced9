package serialize

import (
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/component/configtest"
)

// TestKeylessSerializerConfig decodes the configurations of the
// serializers without keys: nothing is accepted but nothing.
func TestKeylessSerializerConfig(t *testing.T) {
	for _, tt := range []struct {
		spec   component.Spec
		decode func(spec component.Spec, id string) error
	}{
		{JSONSpec(), decodeAs[JSONConfig]},
		{RawSpec(), decodeAs[RawConfig]},
		{BytesSpec(), decodeAs[BytesConfig]},
		{StringSpec(), decodeAs[StringConfig]},
		{ExtendedJSONSpec(), decodeAs[ExtendedJSONConfig]},
	} {
		if err := tt.decode(tt.spec, "none"); err != nil {
			t.Errorf("%s: %v", tt.spec.Name, err)
		}
		if err := tt.decode(tt.spec, "unknown_key"); err == nil || !strings.Contains(err.Error(), `unknown property "avro.schema"`) {
			t.Errorf("%s took avro.schema: %v", tt.spec.Name, err)
		}
	}
}

func decodeAs[C any](spec component.Spec, id string) error {
	_, err := configtest.Decode[C](spec, "testdata/config.yaml", id)
	return err
}

// TestAvroConfig decodes AvroSerializer's configurations from testdata:
// the schema is parsed once, at validation, and kept.
func TestAvroConfig(t *testing.T) {
	c, err := configtest.Decode[AvroConfig](AvroSpec(), "testdata/config.yaml", "avro_event")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.Schema, `{"type":"record","name":"event"`) || c.schema == nil || c.schema.Name() != "event" || len(c.schema.Fields()) != 2 {
		t.Errorf("decoded %+v", c)
	}
	for id, wantErr := range map[string]string{
		"avro_not_record": `property "avro.schema": the Avro schema is a string, not a record`,
		"avro_not_json":   `property "avro.schema": not an Avro schema`,
		"avro_missing":    `missing required property "avro.schema"`,
	} {
		if _, err := configtest.Decode[AvroConfig](AvroSpec(), "testdata/config.yaml", id); err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s: error %v, want one containing %q", id, err, wantErr)
		}
	}
}
