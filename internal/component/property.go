package component

import (
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Property declares one configuration key of a component. From the
// declarations come validation, the `weir components` reference and typed
// access through Config.
type Property struct {
	Key string
	// Aliases are other accepted names of the key, for compatibility (a
	// misspelt key in the spec, say). A value given under an alias is read
	// under Key.
	Aliases     []string
	Description string
	Required    bool
	// Default is used when the key is absent. Empty means no default.
	Default string
	// Validator checks a value; nil accepts any string.
	Validator Validator
	// Sensitive values (passwords, URIs with credentials) are never logged
	// and are redacted in snapshots and on the status page.
	Sensitive bool
	// ServiceRef, when set, says the value names a controller service that
	// must exist in the dataflow and provide this capability (see
	// Spec.Provides).
	ServiceRef string
	// Example is a valid sample value for a key that has no default, or
	// whose default a test should not rely on: the lifecycle test of
	// plugins/all builds every registered component with its defaults and
	// these samples. A sample that names a server (a URI, a host:port)
	// points at 127.0.0.1. It is not shown in the reference.
	Example string
}

// Validator checks one property value.
type Validator interface {
	// Validate returns nil or an error saying what is wrong, in lower case
	// and without the key (the caller adds the key path).
	Validate(value string) error
	// Describe says what is accepted, for documentation.
	Describe() string
}

type validatorFunc struct {
	desc string
	fn   func(string) error
}

func (v validatorFunc) Validate(s string) error { return v.fn(s) }
func (v validatorFunc) Describe() string        { return v.desc }

// NewValidator makes a Validator from a description and a function.
func NewValidator(desc string, fn func(string) error) Validator { return validatorFunc{desc, fn} }

// IntRange accepts integers in [min, max].
func IntRange(min, max int64) Validator {
	return NewValidator(fmt.Sprintf("integer from %d to %d", min, max), func(s string) error {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return fmt.Errorf("%q is not an integer", s)
		}
		if n < min || n > max {
			return fmt.Errorf("%d is out of range [%d, %d]", n, min, max)
		}
		return nil
	})
}

// Bool accepts true and false (any case).
var Bool = NewValidator("true or false", func(s string) error {
	if _, err := parseBool(s); err != nil {
		return err
	}
	return nil
})

func parseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("%q is not true or false", s)
}

// Enum accepts one of the given values, exactly.
func Enum(values ...string) Validator {
	return NewValidator("one of "+strings.Join(values, ", "), func(s string) error {
		for _, v := range values {
			if s == v {
				return nil
			}
		}
		msg := fmt.Sprintf("%q is not one of %s", s, strings.Join(values, ", "))
		if sug := Suggest(s, values); sug != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", sug)
		}
		return fmt.Errorf("%s", msg)
	})
}

// Regex accepts a regular expression in Go's RE2 syntax.
var Regex = NewValidator("regular expression (RE2 syntax)", func(s string) error {
	if _, err := regexp.Compile(s); err != nil {
		return fmt.Errorf("invalid regular expression: %w", err)
	}
	return nil
})

// NonEmpty accepts any value that is not blank.
var NonEmpty = NewValidator("non-empty string", func(s string) error {
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("must not be empty")
	}
	return nil
})

// URL accepts an absolute URL with one of the given schemes.
func URL(schemes ...string) Validator {
	return NewValidator("URL ("+strings.Join(schemes, ", ")+")", func(s string) error {
		u, err := url.Parse(s)
		if err != nil {
			// url.Parse quotes the whole input, which may hold a password.
			return fmt.Errorf("not a valid URL")
		}
		for _, sc := range schemes {
			if u.Scheme == sc {
				if u.Host == "" {
					return fmt.Errorf("URL has no host")
				}
				return nil
			}
		}
		return fmt.Errorf("URL scheme %q is not one of %s", u.Scheme, strings.Join(schemes, ", "))
	})
}

// HostPortList accepts a comma-separated list of host:port addresses.
var HostPortList = NewValidator("comma-separated host:port list", func(s string) error {
	items := SplitList(s)
	if len(items) == 0 {
		return fmt.Errorf("must list at least one host:port")
	}
	for _, it := range items {
		host, port, err := net.SplitHostPort(it)
		if err != nil || host == "" {
			return fmt.Errorf("%q is not host:port", it)
		}
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("%q has an invalid port", it)
		}
	}
	return nil
})

// List accepts a comma-separated list whose every item passes each.
func List(each Validator) Validator {
	return NewValidator("comma-separated list of "+each.Describe(), func(s string) error {
		items := SplitList(s)
		if len(items) == 0 {
			return fmt.Errorf("must list at least one item")
		}
		for _, it := range items {
			if err := each.Validate(it); err != nil {
				return err
			}
		}
		return nil
	})
}

// SplitList splits a comma-separated list, trimming spaces and dropping
// empty items.
func SplitList(s string) []string {
	var out []string
	for _, it := range strings.Split(s, ",") {
		if it = strings.TrimSpace(it); it != "" {
			out = append(out, it)
		}
	}
	return out
}

// Suggest returns the candidate closest to s by edit distance, or "" if none
// is close enough to be a likely typo.
func Suggest(s string, candidates []string) string {
	best, bestD := "", len(s)/2+2
	for _, c := range candidates {
		if d := EditDistance(strings.ToLower(s), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// EditDistance is the Levenshtein distance of a and b, in bytes: the
// number of single-byte insertions, deletions and substitutions that turn
// one into the other. Suggestions for misspelt keys rank candidates by it.
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
