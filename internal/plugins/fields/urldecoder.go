package fields

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/weir-streams/weir/internal/component"
)

// URLDecoderName is the component identifier, as LogIsland's job files
// write it (its Java package is webanalytics; the job files and its
// documentation say webAnalytics).
const URLDecoderName = "pkg.processor.webAnalytics.URLDecoder"

// Charsets URLDecoder decodes percent-encoded bytes from.
var urlCharsets = []string{"UTF-8", "ISO-8859-1", "US-ASCII"}

// URLDecoderSpec declares URLDecoder.
func URLDecoderSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: URLDecoderName,
		Summary: "Decodes URL-encoded fields in place, as Java's URLDecoder: %XX sequences are bytes of the charset and + is a space. " +
			"A % not followed by two hexadecimal digits is kept as a literal % (LogIsland's second try), and bytes that are not valid " +
			"in the charset become U+FFFD. A field that decodes to itself is left untouched.",
		Properties: []component.Property{
			{Key: "decode.fields", Description: "Comma-separated fields to decode.", Required: true, Example: "record_value", Validator: component.List(component.NonEmpty)},
			{Key: "charset", Description: "Charset of the encoded bytes: UTF-8, ISO-8859-1 or US-ASCII (any case).", Default: "UTF-8",
				Validator: component.NewValidator("UTF-8, ISO-8859-1 or US-ASCII", func(s string) error {
					if canonicalCharset(s) == "" {
						return fmt.Errorf("charset %q is not one of %s", s, strings.Join(urlCharsets, ", "))
					}
					return nil
				})},
		},
	}, newURLDecoder)
}

// URLDecoderConfig is URLDecoder's configuration.
type URLDecoderConfig struct {
	Fields  []string `key:"decode.fields"`
	Charset string   `key:"charset"`
}

func canonicalCharset(s string) string {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "UTF-8", "UTF8":
		return "UTF-8"
	case "ISO-8859-1", "ISO8859-1", "ISO_8859_1", "LATIN1":
		return "ISO-8859-1"
	case "US-ASCII", "ASCII":
		return "US-ASCII"
	}
	return ""
}

// URLDecoder is the processor.
type URLDecoder struct {
	fields  []string
	charset string
}

func newURLDecoder(c *URLDecoderConfig, _ component.Env) (component.Processor, error) {
	return &URLDecoder{fields: c.Fields, charset: canonicalCharset(c.Charset)}, nil
}

// Process decodes the fields of every record.
func (p *URLDecoder) Process(_ context.Context, b *component.Batch) error {
	for _, r := range b.Records {
		for _, f := range p.fields {
			v, ok := r.Get(f)
			if !ok || v.IsNull() {
				continue
			}
			s := v.Text()
			if !strings.ContainsAny(s, "%+") {
				continue
			}
			if d := DecodeURL(s, p.charset); d != s {
				r.SetString(f, d)
			}
		}
	}
	return nil
}

// DecodeURL decodes s as Java's java.net.URLDecoder.decode does, with
// LogIsland's retry: a % that does not start a %XX sequence stands for
// itself. charset is one of UTF-8, ISO-8859-1 and US-ASCII.
func DecodeURL(s, charset string) string {
	var out strings.Builder
	out.Grow(len(s))
	var raw []byte
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '+':
			out.WriteByte(' ')
			i++
		case c == '%':
			// A run of %XX sequences is one byte string in the charset.
			raw = raw[:0]
			for i+2 < len(s) && s[i] == '%' && isHex(s[i+1]) && isHex(s[i+2]) {
				raw = append(raw, unhex(s[i+1])<<4|unhex(s[i+2]))
				i += 3
			}
			if len(raw) == 0 {
				out.WriteByte('%')
				i++
				continue
			}
			writeCharset(&out, raw, charset)
		default:
			out.WriteByte(c)
			i++
		}
	}
	return out.String()
}

func writeCharset(out *strings.Builder, raw []byte, charset string) {
	switch charset {
	case "ISO-8859-1":
		for _, c := range raw {
			out.WriteRune(rune(c))
		}
	case "US-ASCII":
		for _, c := range raw {
			if c < utf8.RuneSelf {
				out.WriteByte(c)
			} else {
				out.WriteRune(utf8.RuneError)
			}
		}
	default:
		for len(raw) > 0 {
			r, n := utf8.DecodeRune(raw)
			out.WriteRune(r) // RuneError for a malformed byte, as Java's decoder replaces it
			raw = raw[n:]
		}
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
