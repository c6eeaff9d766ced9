package config

import (
	"bytes"
	"strings"

	"github.com/weir-streams/weir/internal/component"
)

// linesBefore returns the lines of data above line (numbered from 1), and
// false when there are none.
func linesBefore(data []byte, line int) ([]byte, bool) {
	if line <= 1 {
		return nil, false
	}
	end, n := 0, 1
	for n < line {
		i := bytes.IndexByte(data[end:], '\n')
		if i < 0 {
			return nil, false
		}
		end += i + 1
		n++
	}
	return data[:end], true
}

// truncated drops, when the job was read from the lines above a syntax
// error, the problems that may only follow from the cut: anything at or
// after the line above the error (a value may have been cut off there);
// absences (a missing key or property, no stream, a service not defined,
// checks across keys) of the component that starts last and of the
// components that hold it, whose ends were cut off; and references to
// services, which may be defined below the cut. Problems about what is
// there (an unknown key or component, a value of the wrong type, an unset
// variable) stay.
func (p *parser) truncated(ps component.Problems) component.Problems {
	if p.cut == 0 {
		return ps
	}
	out := ps[:0:0]
	for _, pr := range ps {
		if pr.Line == p.cut && strings.HasPrefix(pr.Msg, "YAML syntax error") {
			out = append(out, pr)
			continue
		}
		switch {
		case pr.Line == 0 || pr.Line >= p.cut-1:
		case strings.Contains(pr.Msg, "which is not defined"):
		case p.holdsLast(pr.Path) && absence(pr):
		default:
			out = append(out, pr)
		}
	}
	return out
}

// holdsLast reports whether the problem's component is the one that starts
// last, or holds it: its path is a prefix of the last one's.
func (p *parser) holdsLast(path string) bool {
	comp := path
	for _, suffix := range []string{".configuration", ".component", ".type", ".processorConfigurations"} {
		if i := strings.Index(comp, suffix); i >= 0 && !strings.Contains(comp[i+len(suffix):], "[") {
			comp = comp[:i]
		}
	}
	return comp == "" || p.last == comp || strings.HasPrefix(p.last, comp+".")
}

// absence reports whether a problem is about something missing, which a
// cut may have removed.
func absence(pr component.Problem) bool {
	switch {
	case strings.HasPrefix(pr.Msg, "missing "), strings.Contains(pr.Msg, "has no"),
		strings.Contains(pr.Msg, "must be a"):
		return true
	case pr.Key == "" && strings.HasSuffix(pr.Path, ".configuration"):
		return true // a check across keys, one of which may be below the cut
	}
	return false
}
