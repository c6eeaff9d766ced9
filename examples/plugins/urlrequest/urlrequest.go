// Package urlrequest is an example Weir plugin processor, ParseUrlRequest:
// it splits the request target of an access-log line (the http_query field
// SplitText extracts, "/path/file.ext?a=1&b=x%20y") into its decoded path,
// the file extension of its last segment, and one field per query
// parameter. Analysts group traffic by path and extension and filter on
// parameters (utm_source, q, page) that the raw target hides.
//
// The processor logic is in this package, apart from main, so that it can
// be tested and benchmarked in-process (sdk.Local) as well as run as a
// plugin.
package urlrequest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/weir-streams/weir/sdk"
)

// Name is the processor's identifier in job files.
const Name = "com.example.processor.ParseUrlRequest"

// ErrURLParsing is the error type of records whose target cannot be
// decoded, when on.invalid is error.
const ErrURLParsing = "url_parsing_error"

// Spec declares ParseUrlRequest.
func Spec() sdk.ProcessorSpec {
	return sdk.ProcessorSpec{
		Name: Name,
		Summary: "Splits a request target (\"/path/file.ext?a=1&b=x%20y\") into its decoded path, the lower-case " +
			"extension of its last segment and one field per decoded query parameter (a repeated parameter gives a " +
			"list). A record without the field is passed on unchanged. An example plugin (examples/plugins/urlrequest).",
		Properties: []sdk.Property{
			{Key: "url.field", Description: "Field holding the request target; an absolute URL's scheme and host are skipped.", Default: "http_query", Validator: sdk.NonEmpty()},
			{Key: "path.field", Description: "Field receiving the decoded path.", Default: "url_path", Validator: sdk.NonEmpty()},
			{Key: "extension.field", Description: "Field receiving the extension of the last path segment, lower case, without the dot; not set when there is none.", Default: "url_extension", Validator: sdk.NonEmpty()},
			{Key: "query.prefix", Description: "Prefix of the fields receiving query parameters: parameter utm_source becomes field query_utm_source.", Default: "query_"},
			{Key: "query.keep", Description: "Comma-separated parameter names to keep; empty keeps every parameter (up to query.max).", Validator: sdk.List(sdk.NonEmpty())},
			{Key: "query.max", Description: "Most parameters turned into fields per record; the rest are ignored, so a crafted URL cannot add thousands of fields.", Default: "32", Validator: sdk.IntRange(0, 1000)},
			{Key: "on.invalid", Description: "What to do with a malformed percent-encoding, or one that does not decode to UTF-8: raw keeps the undecoded text, error makes the record an error record (url_parsing_error).", Default: "raw", Validator: sdk.Enum("raw", "error")},
		},
		Check: check,
		// The processor reads only the target: Weir sends it no other
		// field, which keeps a call cheap however many fields records carry.
		Reads: func(conf sdk.Config) []string { return []string{conf.String("url.field")} },
		New:   newProcessor,
	}
}

// check refuses settings each valid alone that do not make sense together;
// `weir validate` reports each problem at the processor.
func check(conf sdk.Config) error {
	var errs []error
	fields := map[string]string{}
	for _, k := range []string{"url.field", "path.field", "extension.field"} {
		if other, dup := fields[conf.String(k)]; dup && k != "path.field" {
			errs = append(errs, fmt.Errorf("%s and %s both name field %q: one would overwrite the other", other, k, conf.String(k)))
		}
		fields[conf.String(k)] = k
	}
	if max, err := conf.Int("query.max"); err == nil && max == 0 && len(conf.List("query.keep")) > 0 {
		errs = append(errs, errors.New("query.keep lists parameters but query.max is 0: none would be kept"))
	}
	return errors.Join(errs...)
}

// processor holds read-only configuration and is safe for concurrent use.
type processor struct {
	urlField, pathField, extField, prefix string
	keep                                  map[string]bool
	max                                   int
	failInvalid                           bool
}

func newProcessor(conf sdk.Config, _ sdk.Env) (sdk.Processor, error) {
	max, err := conf.Int("query.max")
	if err != nil {
		return nil, err
	}
	p := &processor{
		urlField: conf.String("url.field"), pathField: conf.String("path.field"),
		extField: conf.String("extension.field"), prefix: conf.String("query.prefix"),
		max: int(max), failInvalid: conf.String("on.invalid") == "error",
	}
	if keep := conf.List("query.keep"); len(keep) > 0 {
		p.keep = map[string]bool{}
		for _, k := range keep {
			p.keep[k] = true
		}
	}
	return p, nil
}

// Process parses the target of every record in place.
func (p *processor) Process(_ context.Context, b *sdk.Batch) error {
	for _, r := range b.Records {
		target, ok := r.GetString(p.urlField)
		if !ok {
			continue
		}
		if err := p.parse(r, target); err != nil {
			r.AddError(ErrURLParsing, err.Error())
		}
	}
	return nil
}

func (p *processor) parse(r *sdk.Record, target string) error {
	target = stripAuthority(target)
	if i := strings.IndexByte(target, '#'); i >= 0 {
		target = target[:i]
	}
	rawPath, rawQuery, _ := strings.Cut(target, "?")
	path, err := p.decode(rawPath, url.PathUnescape)
	if err != nil {
		return fmt.Errorf("path %q: %w", rawPath, err)
	}
	r.SetString(p.pathField, path)
	if ext := extension(path); ext != "" {
		r.SetString(p.extField, ext)
	}
	n := 0
	var set []string // parameter fields set from this target
	for rawQuery != "" && n < p.max {
		var pair string
		pair, rawQuery, _ = strings.Cut(rawQuery, "&")
		if pair == "" {
			continue
		}
		rawKey, rawValue, _ := strings.Cut(pair, "=")
		key, err := p.decode(rawKey, url.QueryUnescape)
		if err != nil {
			return fmt.Errorf("query parameter name %q: %w", rawKey, err)
		}
		if key == "" || (p.keep != nil && !p.keep[key]) {
			continue
		}
		value, err := p.decode(rawValue, url.QueryUnescape)
		if err != nil {
			return fmt.Errorf("query parameter %q: %w", key, err)
		}
		name := p.prefix + key
		if slices.Contains(set, name) {
			// A parameter repeated in the target becomes a list, in
			// order. A field of that name the record had before is
			// replaced, not appended to: the processor declares that it
			// reads only url.field, so in a plugin it never sees it.
			old, _ := r.Get(name)
			var list []sdk.Value
			if a, ok := old.AsArray(); ok {
				list = append(append(list, a...), sdk.StringValue(value))
			} else {
				list = []sdk.Value{old, sdk.StringValue(value)}
			}
			r.Set(name, sdk.ArrayValue(list))
		} else {
			r.SetString(name, value)
			set = append(set, name)
		}
		n++
	}
	return nil
}

// decode percent-decodes s, returning s unchanged when it has nothing to
// decode (the common case, without an allocation), and s as it is when it
// is malformed and on.invalid is raw.
func (p *processor) decode(s string, unescape func(string) (string, error)) (string, error) {
	if !strings.ContainsAny(s, "%+") {
		return s, nil
	}
	d, err := unescape(s)
	if err == nil && !utf8.ValidString(d) {
		// Bytes of a legacy charset (%E8%F1 in Windows-1251): Weir's
		// strings are UTF-8, so the text stays encoded rather than being
		// mangled into replacement characters.
		err = fmt.Errorf("%q does not decode to UTF-8", s)
	}
	if err != nil {
		if p.failInvalid {
			return "", err
		}
		return s, nil
	}
	return d, nil
}

// stripAuthority drops the scheme and host of an absolute-form target
// ("http://example.com/a?b" as proxies log it).
func stripAuthority(t string) string {
	for _, scheme := range []string{"http://", "https://"} {
		if len(t) > len(scheme) && strings.EqualFold(t[:len(scheme)], scheme) {
			rest := t[len(scheme):]
			if i := strings.IndexAny(rest, "/?"); i >= 0 {
				return rest[i:]
			}
			return "/"
		}
	}
	return t
}

// extension returns the lower-case extension of the last path segment:
// letters and digits after its last dot, at most 10 of them, so that
// "/v1.2/" or "/a.b-c" give none.
func extension(path string) string {
	seg := path[strings.LastIndexByte(path, '/')+1:]
	dot := strings.LastIndexByte(seg, '.')
	if dot <= 0 || dot == len(seg)-1 || len(seg)-dot-1 > 10 {
		return ""
	}
	ext := seg[dot+1:]
	lower := true
	for i := 0; i < len(ext); i++ {
		c := ext[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c >= 'A' && c <= 'Z':
			lower = false
		default:
			return ""
		}
	}
	if !lower {
		ext = strings.ToLower(ext)
	}
	return ext
}
