package alerting

import (
	"reflect"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component/configtest"
)

// TestComputeTagsConfig decodes ComputeTags' configurations from testdata:
// LogIsland's sandbox keys are accepted and unused, and every dynamic key
// is a formula, compiled at validation.
func TestComputeTagsConfig(t *testing.T) {
	for _, tt := range []struct {
		id       string
		want     *ComputeTagsConfig
		compiled []string
		wantErr  string
		wantErr2 string
	}{
		{id: "tags_defaults", want: &ComputeTagsConfig{sandbox(nil)}},
		{id: "tags_logisland", want: &ComputeTagsConfig{SandboxConfig{Datastore: "datastore_service", OutputType: "tag",
			Formulas: map[string]string{"computed1": `return cache("204.138.95.105").value * 10.2;`, "computed2": `cache("a").count + cache('b').count`}}},
			compiled: []string{"computed1", "computed2"}},
		// Both formulas are reported, at once.
		{id: "tags_bad_formulas", wantErr: `property "bad1": formula "cache(\"a\").value * * 2"`,
			wantErr2: `property "bad2": formula "cache(a).value": read the datastore as cache("id").value`},
	} {
		got, err := configtest.Decode[ComputeTagsConfig](ComputeTagsSpec(), "testdata/config.yaml", tt.id)
		var forms []*formula
		if got != nil {
			forms, got.forms = got.forms, nil
		}
		expect(t, tt.id, got, err, tt.want, tt.wantErr, tt.wantErr2)
		if keys := formulaKeys(forms); err == nil && !reflect.DeepEqual(keys, tt.compiled) {
			t.Errorf("%s: compiled %v, want %v", tt.id, keys, tt.compiled)
		}
	}
}

// TestCheckThresholdsConfig decodes CheckThresholds' configurations from
// testdata.
func TestCheckThresholdsConfig(t *testing.T) {
	formula := map[string]string{"threshold1": `cache("204.138.95.105").value > 2000.0`}
	for _, tt := range []struct {
		id      string
		want    *CheckThresholdsConfig
		wantErr string
	}{
		{id: "thresholds_defaults", want: &CheckThresholdsConfig{SandboxConfig: sandbox(formula), TTLMillis: 30000, MinUpdateMillis: 200}},
		{id: "thresholds_full", want: &CheckThresholdsConfig{SandboxConfig: sandbox(formula), TTLMillis: 60000, MinUpdateMillis: 1000}},
		{id: "thresholds_negative_ttl", wantErr: `property "record.ttl"`},
	} {
		got, err := configtest.Decode[CheckThresholdsConfig](CheckThresholdsSpec(), "testdata/config.yaml", tt.id)
		if got != nil {
			if keys := formulaKeys(got.forms); !reflect.DeepEqual(keys, []string{"threshold1"}) {
				t.Errorf("%s: compiled %v", tt.id, keys)
			}
			got.forms = nil
		}
		expect(t, tt.id, got, err, tt.want, tt.wantErr, "")
	}
}

// TestCheckAlertsConfig decodes CheckAlerts' configurations from testdata:
// the activation condition is compiled at validation as the alerts are; a
// bad one is reported alone, before the alerts are compiled.
func TestCheckAlertsConfig(t *testing.T) {
	alert := map[string]string{"alert1": `cache("threshold1").duration > 50.0`}
	for _, tt := range []struct {
		id         string
		want       *CheckAlertsConfig
		activation string
		wantErr    string
	}{
		{id: "alerts_defaults", want: &CheckAlertsConfig{SandboxConfig: sandbox(alert), Activation: "0==0"}, activation: "0==0"},
		{id: "alerts_full", want: &CheckAlertsConfig{SandboxConfig: sandbox(alert), Activation: `cache("threshold1").count > 1`},
			activation: `cache("threshold1").count > 1`},
		{id: "alerts_bad_activation", wantErr: `property "profile.activation.condition": formula "cache(\"threshold1\").count >"`},
		{id: "alerts_no_datastore", wantErr: `missing required property "datastore.client.service"`},
	} {
		got, err := configtest.Decode[CheckAlertsConfig](CheckAlertsSpec(), "testdata/config.yaml", tt.id)
		if err != nil && strings.Contains(err.Error(), "alert1") {
			t.Errorf("%s: the alerts were compiled after a bad activation condition: %v", tt.id, err)
		}
		if got != nil {
			if got.activation == nil || got.activation.text != tt.activation || len(got.forms) != 1 {
				t.Errorf("%s: activation %+v, %d formulas", tt.id, got.activation, len(got.forms))
			}
			got.activation, got.forms = nil, nil
		}
		expect(t, tt.id, got, err, tt.want, tt.wantErr, "")
	}
}

// sandbox is the shared configuration with its defaults and formulas.
func sandbox(formulas map[string]string) SandboxConfig {
	if formulas == nil {
		formulas = map[string]string{}
	}
	return SandboxConfig{Datastore: "datastore_service", OutputType: "event", Formulas: formulas}
}

func formulaKeys(forms []*formula) []string {
	var keys []string
	for _, f := range forms {
		keys = append(keys, f.key)
	}
	return keys
}

// expect compares a decoded configuration, or the error, with a case's;
// the error must contain wantErr and wantErr2.
func expect[C any](t *testing.T, id string, got *C, err error, want *C, wantErr, wantErr2 string) {
	t.Helper()
	switch {
	case wantErr == "" && (err != nil || !reflect.DeepEqual(got, want)):
		t.Errorf("%s: %+v, %v; want %+v", id, got, err, want)
	case wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr) || !strings.Contains(err.Error(), wantErr2)):
		t.Errorf("%s: error %v, want one containing %q and %q", id, err, wantErr, wantErr2)
	}
}
