package config

import (
	"strings"
	"testing"
)

func TestExpand(t *testing.T) {
	env := map[string]string{
		"SET":   "value",
		"EMPTY": "",
		"_U1":   "underscore",
		"HOST":  "kafka:9092",
		"lower": "set",
	}
	getenv := func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}
	tests := []struct {
		name, in, want string
		// errWant, when set, is a part of the error the input must give.
		errWant string
	}{
		{name: "no reference", in: "plain text $ and {braces}", want: "plain text $ and {braces}"},
		{name: "set", in: "${SET}", want: "value"},
		{name: "set inside text", in: "a-${SET}-b", want: "a-value-b"},
		{name: "two references", in: "${HOST},${SET}", want: "kafka:9092,value"},
		{name: "underscore and digit", in: "${_U1}", want: "underscore"},
		{name: "set wins over default", in: "${SET:-other}", want: "value"},
		{name: "unset with default", in: "${UNSET:-fallback}", want: "fallback"},
		{name: "default with colons", in: "${UNSET:-host1:9092,host2:9092}", want: "host1:9092,host2:9092"},
		{name: "empty with default", in: "${EMPTY:-fallback}", want: "fallback"},
		{name: "empty without default", in: "[${EMPTY}]", want: "[]"},
		{name: "unset with empty default", in: "[${UNSET:-}]", want: "[]"},
		{name: "escape", in: "$${SET}", want: "${SET}"},
		{name: "escape then reference", in: "$${SET}=${SET}", want: "${SET}=value"},
		{name: "reference then escape", in: "${SET}$${SET}", want: "value${SET}"},
		{name: "escape of an unset name", in: "$${UNSET}", want: "${UNSET}"},
		{name: "set lower-case name", in: "${lower}", want: "set"},
		{name: "lone dollar", in: "cost $5 ${SET}", want: "cost $5 value"},

		{name: "unset", in: "x ${UNSET} y", errWant: "environment variable UNSET is not set and ${UNSET} has no default (write ${UNSET:-value} to give one)"},
		{name: "unset after a set one", in: "${SET}${NOPE}", errWant: "environment variable NOPE is not set"},
		{name: "default with a single colon", in: "${A:b}", errWant: `invalid variable name "A:b" in ${A:b} (a default is written ${A:-value})`},
		{name: "default with a dash only", in: "${A-b}", errWant: `invalid variable name "A-b" in ${A-b}`},
		{name: "unclosed", in: "host ${HOST", errWant: `unclosed variable reference "${HOST"`},
		{name: "unclosed with default", in: "${HOST:-a:1", errWant: `unclosed variable reference "${HOST:-a:1"`},

		// LogIsland's expression language: text for the component.
		{name: "empty name", in: "${}", want: "${}"},
		{name: "name with a digit first", in: "${1A}", want: "${1A}"},
		{name: "name with a space", in: "${A B}", want: "${A B}"},
		{name: "java expression", in: "${new String(bytes_payload)}", want: "${new String(bytes_payload)}"},
		{name: "mvel with return", in: "${ return age > 18 }", want: "${ return age > 18 }"},
		{name: "mvel string concatenation", in: "${'workit_'+Company}", want: "${'workit_'+Company}"},
		{name: "dotted name", in: "${kafka.zookeeper.quorum}", want: "${kafka.zookeeper.quorum}"},
		{name: "unset field name", in: "${location}", want: "${location}"},
		{name: "unset mixed-case name", in: "${codeProduct_rev}", want: "${codeProduct_rev}"},
		{name: "expression then reference", in: "${a + b}-${SET}", want: "${a + b}-value"},
		{name: "unclosed expression", in: "${ return x", want: "${ return x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Expand(tt.in, getenv)
			if tt.errWant != "" {
				if err == nil {
					t.Fatalf("Expand(%q) = %q, want an error with %q", tt.in, got, tt.errWant)
				}
				if !strings.Contains(err.Error(), tt.errWant) {
					t.Fatalf("Expand(%q) error %q, want %q in it", tt.in, err, tt.errWant)
				}
				return
			}
			if err != nil {
				t.Fatalf("Expand(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("Expand(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestExpandDoesNotRescan checks that a value is used as it is: a variable
// whose value holds ${...} is not expanded again, so an environment value can
// never pull in another variable.
func TestExpandDoesNotRescan(t *testing.T) {
	getenv := func(k string) (string, bool) {
		if k == "OUTER" {
			return "${INNER}", true
		}
		return "", false
	}
	got, err := Expand("${OUTER}", getenv)
	if err != nil || got != "${INNER}" {
		t.Errorf("Expand = %q, %v; want the value unexpanded", got, err)
	}
}
