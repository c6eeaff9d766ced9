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
			return "", fmt.Errorf("unclosed variable reference %q", s[i:])
		}
		expr := s[i+2 : i+end]
		s = s[i+end+1:]
		if path, ok := strings.CutPrefix(expr, "file:"); ok {
			v, err := readSecret(path)
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			continue
		}
		name, def, hasDef := strings.Cut(expr, ":-")
		if !validName(name) {
			return "", fmt.Errorf("invalid variable name %q in ${%s}", name, expr)
		}
		v, ok := getenv(name)
		switch {
		case ok && (v != "" || !hasDef):
			b.WriteString(v)
		case hasDef:
			b.WriteString(def)
		default:
			return "", fmt.Errorf("environment variable %s is not set and ${%s} has no default (write ${%s:-value} to give one)", name, name, name)
		}
	}
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
