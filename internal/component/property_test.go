package component_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
)

func TestValidators(t *testing.T) {
	tests := []struct {
		name string
		v    component.Validator
		in   string
		// err is a part of the expected error; empty means the value is
		// accepted.
		err string
	}{
		{"int in range", component.IntRange(1, 10), "5", ""},
		{"int with spaces", component.IntRange(1, 10), " 10 ", ""},
		{"int at the low end", component.IntRange(-1, 10), "-1", ""},
		{"int below", component.IntRange(1, 10), "0", "0 is out of range [1, 10]"},
		{"int above", component.IntRange(1, 10), "11", "11 is out of range [1, 10]"},
		{"int not a number", component.IntRange(1, 10), "ten", `"ten" is not an integer`},
		{"int decimal", component.IntRange(1, 10), "5.0", `"5.0" is not an integer`},
		{"int empty", component.IntRange(1, 10), "", `"" is not an integer`},
		{"int overflow", component.IntRange(0, 1<<62), "99999999999999999999", "is not an integer"},

		{"bool true", component.Bool, "true", ""},
		{"bool any case", component.Bool, "FALSE", ""},
		{"bool with spaces", component.Bool, " True ", ""},
		{"bool yes", component.Bool, "yes", `"yes" is not true or false`},
		{"bool one", component.Bool, "1", `"1" is not true or false`},
		{"bool empty", component.Bool, "", `"" is not true or false`},

		{"enum member", component.Enum("upsert", "insert"), "insert", ""},
		{"enum wrong case", component.Enum("upsert", "insert"), "Insert", `"Insert" is not one of upsert, insert (did you mean "insert"?)`},
		{"enum far off", component.Enum("upsert", "insert"), "delete-everything", `"delete-everything" is not one of upsert, insert`},

		{"regex", component.Regex, `(\S+)\s+\[([\w:/]+\s[+\-]\d{4})\]`, ""},
		{"regex empty", component.Regex, "", ""},
		{"regex unclosed", component.Regex, `(\S+`, "invalid regular expression: error parsing regexp: missing closing )"},
		// RE2 has no backreferences; a Perl pattern with one is refused
		// rather than misread.
		{"regex backreference", component.Regex, `(a)\1`, "invalid regular expression"},

		{"non-empty", component.NonEmpty, "x", ""},
		{"non-empty blank", component.NonEmpty, "  ", "must not be empty"},

		{"url", component.URL("http", "https"), "https://host:8080/path?q=1", ""},
		{"url other scheme", component.URL("http", "https"), "ftp://host", `URL scheme "ftp" is not one of http, https`},
		{"url without host", component.URL("http"), "http:///path", "URL has no host"},
		{"url relative", component.URL("http"), "/path", `URL scheme "" is not one of http`},
		{"url unparsable", component.URL("http"), "http://user:pa%zzss@host", "not a valid URL"},

		{"host:port", component.HostPortList, "kafka1:9092", ""},
		{"host:port list with spaces", component.HostPortList, " a:1 , b:65535 ,", ""},
		{"host:port IPv6", component.HostPortList, "[::1]:9092", ""},
		{"host:port empty", component.HostPortList, " , ", "must list at least one host:port"},
		{"host without port", component.HostPortList, "a:1,b", `"b" is not host:port`},
		{"port without host", component.HostPortList, ":9092", `":9092" is not host:port`},
		{"port zero", component.HostPortList, "a:0", `"a:0" has an invalid port`},
		{"port too high", component.HostPortList, "a:65536", `"a:65536" has an invalid port`},
		{"port not a number", component.HostPortList, "a:http", `"a:http" has an invalid port`},

		{"list", component.List(component.IntRange(1, 3)), "1, 2,3", ""},
		{"list empty", component.List(component.NonEmpty), ",,", "must list at least one item"},
		{"list bad item", component.List(component.IntRange(1, 3)), "1,5", "5 is out of range [1, 3]"},

		{"custom", component.NewValidator("even number", func(s string) error {
			if len(s)%2 != 0 {
				return errOdd
			}
			return nil
		}), "abc", "odd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.v.Validate(tt.in)
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("Validate(%q) = %v, want nil", tt.in, err)
			case tt.err != "" && err == nil:
				t.Errorf("Validate(%q) accepts the value, want %q", tt.in, tt.err)
			case tt.err != "" && !strings.Contains(err.Error(), tt.err):
				t.Errorf("Validate(%q) = %q, want %q in it", tt.in, err, tt.err)
			}
			// Messages are lower case, so they read well after the key; an
			// acronym such as URL or the quoted value may open them.
			if err != nil {
				first, _, _ := strings.Cut(err.Error(), " ")
				if first != strings.ToLower(first) && first != strings.ToUpper(first) && !strings.HasPrefix(first, `"`) {
					t.Errorf("message %q does not start in lower case", err)
				}
			}
		})
	}
}

type oddError struct{}

func (oddError) Error() string { return "odd length" }

var errOdd = oddError{}

// TestURLErrorHidesTheValue checks that an unparsable URL is not echoed: a
// connection URI may hold a password, and the message reaches logs.
func TestURLErrorHidesTheValue(t *testing.T) {
	err := component.URL("mongodb").Validate("mongodb://user:s3cr%zzet@host")
	if err == nil || strings.Contains(err.Error(), "s3cr") {
		t.Errorf("error %v", err)
	}
}

func TestValidatorDescriptions(t *testing.T) {
	for _, tt := range []struct {
		v    component.Validator
		want string
	}{
		{component.IntRange(0, 65535), "integer from 0 to 65535"},
		{component.Bool, "true or false"},
		{component.Enum("a", "b"), "one of a, b"},
		{component.Regex, "regular expression (RE2 syntax)"},
		{component.NonEmpty, "non-empty string"},
		{component.URL("http", "https"), "URL (http, https)"},
		{component.HostPortList, "comma-separated host:port list"},
		{component.List(component.Bool), "comma-separated list of true or false"},
		{component.NewValidator("anything", func(string) error { return nil }), "anything"},
	} {
		if got := tt.v.Describe(); got != tt.want {
			t.Errorf("Describe() = %q, want %q", got, tt.want)
		}
	}
}

func TestSplitList(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"a,b", []string{"a", "b"}},
		{" a , ,b ,,", []string{"a", "b"}},
		{"single", []string{"single"}},
		{"", nil},
		{" , ", nil},
	} {
		if got := component.SplitList(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("SplitList(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	keys := []string{"value.regex", "value.fields", "key.regex", "record.type"}
	for _, tt := range []struct {
		in         string
		candidates []string
		want       string
	}{
		{"value.regx", keys, "value.regex"},
		{"value.field", keys, "value.fields"},
		{"VALUE.REGEX", keys, "value.regex"}, // case is not a typo worth counting
		{"key.regexp", keys, "key.regex"},
		{"recordtype", keys, "record.type"},
		{"something.else.entirely", keys, ""},
		{"ab", []string{"xyz"}, ""}, // three edits in a two-letter word is not a typo
		{"ab", []string{"abc"}, "abc"},
		{"anything", nil, ""},
	} {
		if got := component.Suggest(tt.in, tt.candidates); got != tt.want {
			t.Errorf("Suggest(%q, %q) = %q, want %q", tt.in, tt.candidates, got, tt.want)
		}
	}
}
