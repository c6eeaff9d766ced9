package config

import (
	"fmt"
	"strings"

	"github.com/weir-streams/weir/internal/localfile"
)

// Expand replaces ${VAR} and ${VAR:-default} with environment values looked
// up by getenv. $${ stands for a literal ${. It returns an error naming the
// first variable that is unset and has no default, or a reference that is
// not closed.
//
// ${file:PATH} is replaced by the content of the file PATH with one
// trailing newline (\n or \r\n) removed, so that secrets mounted as files
// (Docker and Kubernetes secrets) stay out of the environment and the job
// file.
//
// ${VAR:-default} uses the default when VAR is unset or empty, as POSIX
// shells do, because an empty broker list or URI is never what a user
// meant.
//
// Any other ${...} is text for the component, left as written: LogIsland
// substitutes only its own environment variables (KAFKA_BROKERS,
// ES_HOSTS...) and hands every other ${...} to the component, whose
// expression language reads it (${new String(bytes_payload)},
// ${'workit_' + Company}, ${location} for the field location). So a
// reference whose name is written as environment variables are, upper
// case, digits and underscores, must be set or have a default; a name with
// a lower-case letter is replaced when it is set and otherwise left as
// text; and what is no name at all (spaces, dots, quotes, operators) is
// always text. ${NAME:x} and ${NAME-x}, with NAME upper case, are
// refused: they are a default written wrongly, not an expression.
func Expand(s string, getenv func(string) (string, bool)) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		if i > 0 && s[i-1] == '$' {
			b.WriteString(s[:i-1])
			b.WriteString("${")
			s = s[i+2:]
			continue
		}
		b.WriteString(s[:i])
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			if envLike(leadingName(s[i+2:])) {
				return "", fmt.Errorf("unclosed variable reference %q", s[i:])
			}
			// Text for the component: the rest is written as it is.
			b.WriteString(s[i:])
			return b.String(), nil
		}
		expr := s[i+2 : i+end]
		if path, ok := strings.CutPrefix(expr, "file:"); ok {
			s = s[i+end+1:]
			v, err := readSecret(path)
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			continue
		}
		name, def, hasDef := strings.Cut(expr, ":-")
		if !validName(name) {
			if lead := leadingName(expr); envLike(lead) && (expr[len(lead)] == ':' || expr[len(lead)] == '-') {
				return "", fmt.Errorf("invalid variable name %q in ${%s} (a default is written ${%s:-value})", name, expr, lead)
			}
			// An expression of the component's (see above): kept, and
			// the text after "${" is scanned on, so that a reference
			// inside it is still replaced.
			b.WriteString("${")
			s = s[i+2:]
			continue
		}
		s = s[i+end+1:]
		v, ok := getenv(name)
		switch {
		case ok && (v != "" || !hasDef):
			b.WriteString(v)
		case hasDef:
			b.WriteString(def)
		case !envLike(name):
			// A field of the component's expression language.
			b.WriteString("${" + expr + "}")
		default:
			return "", fmt.Errorf("environment variable %s is not set and ${%s} has no default (write ${%s:-value} to give one)", name, name, name)
		}
	}
}

// envLike reports whether name is written as environment variables are:
// upper-case letters, digits and underscores, not starting with a digit.
func envLike(name string) bool {
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for _, c := range name {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// leadingName returns the longest prefix of s that is a variable name, or
// "".
func leadingName(s string) string {
	n := 0
	for n < len(s) && validName(s[:n+1]) {
		n++
	}
	return s[:n]
}

func validName(n string) bool {
	if n == "" {
		return false
	}
	for i, c := range n {
		if c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// readSecret reads the file of a ${file:PATH} reference. Its errors name the
// path, never the content.
func readSecret(path string) (string, error) {
	if path == "" {
		return "", fmt.Errorf("${file:} names no file; write ${file:/path/to/secret}")
	}
	// Only regular files (symbolic links to them, as Kubernetes mounts
	// secrets, are followed): a FIFO or a device would block or never end.
	// A secret is a password, a token or a URI, and a larger file is a
	// mistake (a log, a device) that must not be read into memory.
	data, err := localfile.Read(path, localfile.Secret)
	if err != nil {
		return "", fmt.Errorf("${file:}: %w", err)
	}
	v := strings.TrimSuffix(string(data), "\n")
	return strings.TrimSuffix(v, "\r"), nil
}
