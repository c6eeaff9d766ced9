package dataflow

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/weir-streams/weir/internal/component"
)

// RemotePolicy is what the local job file allows a dataflow from the REST
// API to name on this machine. The job file is trusted and the REST API is
// not: a remote dataflow never widens what the local configuration allows,
// so by default it may name no local file and not the embedded broker.
type RemotePolicy struct {
	// AllowedPaths are the absolute directories under which a remote
	// dataflow may name files and directories.
	AllowedPaths []string
	// AllowEmbedded lets a remote dataflow use "embedded" as a broker list,
	// which starts a broker without authentication on this machine.
	AllowEmbedded bool
}

// The engine keys that set a RemotePolicy (declared with the other
// remote.api.* keys in internal/remote), named in the refusals.
const (
	KeyAllowedPaths    = "remote.api.allowed.paths"
	KeyAllowedEmbedded = "remote.api.allowed.embedded"
)

// localPathSuffixes end the keys that name local files or directories, as
// Weir's and LogIsland's components name them: broker.ssl.ca.location,
// remote.api.tls.ca.file, grok.patterns.dir, maxmind.database.path, and the
// same in any plugin's keys.
var localPathSuffixes = []string{".location", ".file", ".files", ".dir", ".dirs", ".path", ".paths"}

// localPathKeys are the other keys that name local files: the geo
// database as a file: URI.
var localPathKeys = map[string]bool{"maxmind.database.uri": true}

// nonPathValues are values of path keys that name no file: the stand-in
// geo database, of its key only (elsewhere it is a relative path).
var nonPathValues = map[string]string{"maxmind.database.path": "stand-in"}

// NamesLocalPath reports whether a configuration key names a local file
// or directory.
func NamesLocalPath(key string) bool {
	k := strings.ToLower(key)
	if localPathKeys[k] {
		return true
	}
	for _, s := range localPathSuffixes {
		if strings.HasSuffix(k, s) {
			return true
		}
	}
	return false
}

// brokerListKey is the stream key whose "embedded" starts the in-process
// broker (stream.KeyBrokerList, which this package cannot import).
const brokerListKey = "broker.metadata.broker.list"

// CheckRemote refuses what a dataflow from the REST API may not name under
// p: a key that names a local file or directory whose value is not under
// one of p.AllowedPaths, and "embedded" as a broker list unless
// p.AllowEmbedded. Each problem names the component and the key, never the
// value: the value may be a path the attacker probes for, and the refusal
// reaches logs, /api/status and the snapshots sent back to the API.
func CheckRemote(d *DataFlow, p RemotePolicy) component.Problems {
	allowed := make([]string, 0, len(p.AllowedPaths))
	for _, a := range p.AllowedPaths {
		if r, err := resolve(a); err == nil {
			allowed = append(allowed, r)
		}
	}
	var probs component.Problems
	check := func(c *Component, restPath string) {
		cpath := pathOr(c, restPath) + configSuffix(c)
		for _, prop := range c.Config {
			key := prop.Key
			switch {
			case key == brokerListKey:
				if !p.AllowEmbedded && hasEmbedded(prop.Value) {
					probs = append(probs, component.Problem{Path: cpath, Key: key,
						Msg: fmt.Sprintf("property %q: a dataflow from the REST API may use the embedded broker only when the job file sets %s", key, KeyAllowedEmbedded)})
				}
			case NamesLocalPath(key):
				if v, ok := nonPathValues[key]; ok && strings.TrimSpace(prop.Value) == v {
					continue
				}
				if !underAll(prop.Value, allowed) {
					probs = append(probs, component.Problem{Path: cpath, Key: key, Msg: refusal(fmt.Sprintf("property %q names", key), len(allowed))})
				}
			default:
				if opt, ok := uriFileOption(prop.Value, allowed); !ok {
					probs = append(probs, component.Problem{Path: cpath, Key: key,
						Msg: refusal(fmt.Sprintf("property %q is a URI whose option %q names", key, opt), len(allowed))})
				}
			}
		}
	}
	for i := range d.Services {
		c := &d.Services[i]
		check(c, fmt.Sprintf("services[%s]", c.Name))
	}
	for i := range d.Streams {
		s := &d.Streams[i]
		spath := pathOr(&s.Component, fmt.Sprintf("streams[%s]", s.Name))
		check(&s.Component, spath)
		for j := range s.Pipeline.Processors {
			c := &s.Pipeline.Processors[j]
			check(c, fmt.Sprintf("%s.pipeline.processors[%s]", spath, c.Name))
		}
	}
	return probs
}

func refusal(what string, allowed int) string {
	msg := what + " a local file or directory, which a dataflow from the REST API may name only under a directory of " + KeyAllowedPaths
	if allowed == 0 {
		msg += " (the job file allows none)"
	}
	return msg
}

// uriFileOption checks the options of a URI value (a MongoDB URI's
// tlsCAFile, tlsCertificateKeyFile) whose name ends in "file": each must be
// under an allowed directory. It returns the first option that is not, and
// false; a value that is not a URI with a query passes.
func uriFileOption(value string, allowed []string) (string, bool) {
	if !strings.Contains(value, "://") || !strings.Contains(value, "?") {
		return "", true
	}
	u, err := url.Parse(value)
	if err != nil {
		// Unparsable: look at the raw query, which is what a lenient
		// driver might still read.
		_, raw, _ := strings.Cut(value, "?")
		u = &url.URL{RawQuery: raw}
	}
	q, _ := url.ParseQuery(u.RawQuery)
	for name, vs := range q {
		if !strings.HasSuffix(strings.ToLower(name), "file") {
			continue
		}
		for _, v := range vs {
			if !underAll(v, allowed) {
				return name, false
			}
		}
	}
	return "", true
}

func hasEmbedded(v string) bool {
	for _, e := range strings.Split(v, ",") {
		if strings.EqualFold(strings.TrimSpace(e), "embedded") {
			return true
		}
	}
	return false
}

// underAll reports whether every path of a comma-separated value lies
// under one of the allowed directories (already resolved). An empty value
// names nothing.
func underAll(value string, allowed []string) bool {
	for _, e := range strings.Split(value, ",") {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(e, "file://"); ok {
			e = rest
		} else if rest, ok := strings.CutPrefix(e, "file:"); ok {
			e = rest
		}
		if !filepath.IsAbs(e) {
			// A relative path depends on the working directory, and a URI
			// of another scheme names no local file Weir could check.
			return false
		}
		r, err := resolve(e)
		if err != nil {
			return false
		}
		ok := false
		for _, a := range allowed {
			if r == a || strings.HasPrefix(r, a+string(filepath.Separator)) || a == string(filepath.Separator) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// resolve returns p cleaned, with the symbolic links of its longest
// existing part resolved, so that a link under an allowed directory cannot
// lead out of it.
func resolve(p string) (string, error) {
	p = filepath.Clean(p)
	var rest []string
	cur := p
	for {
		r, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p, nil
		}
		rest = append([]string{filepath.Base(cur)}, rest...)
		cur = parent
	}
}

// CheckAllowedPaths checks the directories of a policy's key: each must
// be absolute, since a relative one would depend on the working directory.
func CheckAllowedPaths(dirs []string) error {
	for _, d := range dirs {
		if !filepath.IsAbs(d) {
			return fmt.Errorf("%q is not an absolute path", d)
		}
	}
	return nil
}
