package logisland

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/weir-streams/weir/internal/dataflow"
)

// valueConversions are, per LogIsland component identifier (prefix
// changed) and key as LogIsland names it, the values that mean something
// else to Weir's component: each is rewritten to Weir's meaning before
// validation. A conversion returns the value unchanged when it does not
// apply (the value is Weir's already, or not valid, which validation then
// reports as written).
var valueConversions = map[string]map[string]func(string) (string, string){}

func init() {
	for _, id := range elasticsearchServices {
		valueConversions[id] = map[string]func(string) (string, string){
			"hosts":          esHosts,
			"flush.interval": secondsToMillis,
			"backoff.policy": esBackoff,
		}
	}
}

// esHosts turns LogIsland's host:port list into Weir's URLs: a host
// without a scheme is http://host:port. Port 9300 is the transport port of
// Elasticsearch's Java client, which Weir's HTTP client cannot speak: the
// caller warns, and the value is kept as given (9200 is the HTTP port).
func esHosts(v string) (string, string) {
	parts := strings.Split(v, ",")
	warn := ""
	for i, h := range parts {
		h = strings.TrimSpace(h)
		if strings.Contains(h, "://") || h == "" {
			parts[i] = h
			continue
		}
		if _, port, err := net.SplitHostPort(h); err == nil && port == "9300" {
			warn = fmt.Sprintf("hosts %q names port 9300, the transport port of Elasticsearch's Java client; Weir speaks Elasticsearch's HTTP API (port 9200 by default): give the HTTP port", v)
		}
		parts[i] = "http://" + h
	}
	return strings.Join(parts, ","), warn
}

// secondsToMillis converts LogIsland's flush.interval of the
// Elasticsearch services, in seconds, to Weir's milliseconds.
func secondsToMillis(v string) (string, string) {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n < 0 || n > 3600 {
		return v, ""
	}
	return strconv.FormatInt(n*1000, 10), ""
}

// esBackoff maps LogIsland's backoff policies to Weir's.
func esBackoff(v string) (string, string) {
	switch v {
	case "noBackoff":
		return "none", ""
	case "constantBackoff":
		return "constant", ""
	case "exponentialBackoff", "defaultBackoff":
		return "exponential", ""
	}
	return v, ""
}

// convertValues rewrites the values of c that LogIsland's component given
// means otherwise than Weir's (valueConversions), before the keys are
// renamed, and adds the warnings to res.
func convertValues(given string, c *dataflow.Component, res *Result) {
	conv := valueConversions[given]
	if conv == nil {
		return
	}
	for i, p := range c.Config {
		f := conv[p.Key]
		if f == nil {
			continue
		}
		v, warn := f(p.Value)
		c.Config[i].Value = v
		if warn != "" {
			res.Warnings = append(res.Warnings, warn)
		}
	}
}
