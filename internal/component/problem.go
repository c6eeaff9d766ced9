package component

import (
	"fmt"
	"sort"
	"strings"
)

// Problem is one thing wrong with a configuration, located by the path of
// the component (for example
// "streamConfigurations[parsing].processorConfigurations[apache_parser].configuration"),
// the key inside it, and the line in the job file when there is one.
type Problem struct {
	Path string
	Key  string
	Line int
	Msg  string
}

func (p Problem) String() string {
	var b strings.Builder
	if p.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", p.Line)
	}
	if p.Path != "" {
		b.WriteString(p.Path)
		b.WriteString(": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// Problems is a list of configuration problems. As an error it reports all
// of them, one per line, so a user fixes a file in one pass.
type Problems []Problem

func (ps Problems) Error() string {
	if len(ps) == 1 {
		return ps[0].String()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d configuration problems:", len(ps))
	for _, p := range ps {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	return b.String()
}

// Sort orders the problems by line, keeping the order in which they were
// found among problems of one line, so that a report reads from the top of
// the job file to the bottom. Problems without a line come first.
func (ps Problems) Sort() {
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Line < ps[j].Line })
}

// Err returns ps as an error, or nil if there are none.
func (ps Problems) Err() error {
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// At returns the problems with path and line set where they are not yet.
// lineOf gives the line of a key (0 if unknown).
func (ps Problems) At(path string, lineOf func(key string) int) Problems {
	out := make(Problems, len(ps))
	for i, p := range ps {
		if p.Path == "" {
			p.Path = path
		}
		if p.Line == 0 && lineOf != nil {
			p.Line = lineOf(p.Key)
		}
		out[i] = p
	}
	return out
}
