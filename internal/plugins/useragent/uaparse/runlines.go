package uaparse

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// RunLines reads one user agent per line from r and writes, for each, one
// JSON object with every attribute (in the order of AttributeNames) to w.
// An empty line is the empty user agent. Lines may be of any length; a
// trailing "\r" is removed so that files with Windows line ends work.
func RunLines(r io.Reader, w io.Writer, a *Analyzer) error {
	return RunLinesFields(r, w, a, nil)
}

// RunLinesFields is RunLines writing only the attributes named in fields,
// in that order (every attribute when fields is empty).
func RunLinesFields(r io.Reader, w io.Writer, a *Analyzer, fields []string) error {
	if a == nil {
		a = New(Options{})
	}
	br := bufio.NewReaderSize(r, 64*1024)
	bw := bufio.NewWriterSize(w, 64*1024)
	buf := make([]byte, 0, 4096)
	for {
		line, err := br.ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("read user agents: %w", err)
		}
		if line == "" && errors.Is(err, io.EOF) {
			break
		}
		line = strings.TrimSuffix(line, "\n")
		line = strings.TrimSuffix(line, "\r")
		if len(fields) == 0 {
			buf = appendJSON(buf[:0], a.Analyze(line))
		} else {
			buf = appendFieldsJSON(buf[:0], a.Analyze(line), fields)
		}
		buf = append(buf, '\n')
		if _, werr := bw.Write(buf); werr != nil {
			return fmt.Errorf("write result: %w", werr)
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write result: %w", err)
	}
	return nil
}

// appendJSON writes the result as a JSON object with the attributes in
// specification order (encoding/json would sort map keys).
func appendFieldsJSON(b []byte, r Result, fields []string) []byte {
	b = append(b, '{')
	for i, name := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, name)
		b = append(b, ':')
		b = appendJSONString(b, r.Get(name))
	}
	return append(b, '}')
}

func appendJSON(b []byte, r Result) []byte {
	b = append(b, '{')
	first := true
	r.Each(func(name, value string) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = strconv.AppendQuote(b, name)
		b = append(b, ':')
		b = appendJSONString(b, value)
	})
	return append(b, '}')
}

// appendJSONString quotes s as a JSON string. Invalid UTF-8 becomes U+FFFD
// so the output is always valid JSON.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', byte(c))
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		case c == 0x2028 || c == 0x2029:
			b = append(b, '\\', 'u', '2', '0', '2', hex[c&0xf])
		default:
			b = append(b, string(c)...) // range turns invalid bytes into U+FFFD
		}
	}
	return append(b, '"')
}
