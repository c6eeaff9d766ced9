package jobtest

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/serialize"
)

// Failure is one expectation that does not hold: where it is written, what
// differs, and the record it was checked on (JSON, empty when none).
type Failure struct {
	Line   int
	Msg    string
	Record string
}

// check returns the failures of a case's expectations on a result, in the
// order they are written.
func check(e Expect, res Result) []Failure {
	var out []Failure
	unknown := map[string]bool{}
	for _, dest := range slices.Sorted(maps.Keys(e.Counts)) {
		if msg := unknownDest(dest, res); msg != "" {
			unknown[dest] = true
			out = append(out, Failure{Line: e.lineOf("count." + dest), Msg: "count of " + msg})
		}
	}
	for _, re := range e.Records {
		if unknown[re.Dest] {
			continue
		}
		if msg := unknownDest(re.Dest, res); msg != "" {
			unknown[re.Dest] = true
			out = append(out, Failure{Line: re.Line, Msg: "records of " + msg})
		}
	}
	for _, dest := range slices.Sorted(maps.Keys(e.Counts)) {
		if unknown[dest] {
			continue
		}
		want := e.Counts[dest]
		if got := len(written(res, dest)); got != want {
			out = append(out, Failure{Line: e.lineOf("count." + dest), Msg: fmt.Sprintf("count of %s: want %d records, got %d%s", dest, want, got, summary(res))})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(e.Stored)) {
		want := e.Stored[name]
		got, ok := res.Stored[name]
		switch {
		case !ok:
			out = append(out, Failure{Line: e.lineOf("stored." + name), Msg: fmt.Sprintf("stored: %q is not a datastore service of the job with canned answers", name)})
		case got != int64(want):
			out = append(out, Failure{Line: e.lineOf("stored." + name), Msg: fmt.Sprintf("stored in %s: want %d records, got %d", name, want, got)})
		}
	}
	seen := map[string]int{}
	for _, re := range e.Records {
		if unknown[re.Dest] {
			continue
		}
		n := seen[re.Dest]
		seen[re.Dest]++
		recs := written(res, re.Dest)
		if n >= len(recs) {
			out = append(out, Failure{Line: re.Line, Msg: fmt.Sprintf("record %d of %s: none; %d records were written there%s", n+1, re.Dest, len(recs), summary(res))})
			continue
		}
		r := recs[n]
		var msgs []Failure
		for _, fe := range re.Fields {
			if msg := checkField(fe, r.Record); msg != "" {
				msgs = append(msgs, Failure{Line: fe.Line, Msg: fmt.Sprintf("record %d of %s: field %q: %s", n+1, re.Dest, fe.Field, msg)})
			}
		}
		if len(msgs) > 0 {
			// The record is printed once, after the last difference found on it.
			msgs[len(msgs)-1].Record = string(serialize.AppendRecordJSON(nil, r.Record))
		}
		out = append(out, msgs...)
	}
	return out
}

// unknownDest says why dest is not a destination of the stream, or "": a
// count on a misspelt topic would otherwise pass as zero records.
// Destinations are output, error, dropped, the stream's output and error
// topics, and any topic a record was routed to.
func unknownDest(dest string, res Result) string {
	if dest == DestOutput || dest == DestError || dest == DestDropped || slices.Contains(res.Topics, dest) {
		return ""
	}
	names := []string{DestOutput, DestError, DestDropped}
	topics := slices.Clone(res.Topics)
	for _, o := range res.Outputs {
		for _, t := range o.Topics {
			if t == dest {
				return ""
			}
			if !slices.Contains(topics, t) {
				topics = append(topics, t)
			}
		}
	}
	sort.Strings(topics)
	msg := fmt.Sprintf("%s: the stream writes no topic %q; it writes the topics %q (and output, error and dropped name all its output records, error records and records dropped on purpose)", dest, dest, topics)
	if sug := component.Suggest(dest, append(names, topics...)); sug != "" {
		msg += fmt.Sprintf("; did you mean %q?", sug)
	}
	return msg
}

// written returns the records written to dest: DestOutput, DestError, or
// a topic name; or those dropped on purpose (DestDropped).
func written(res Result, dest string) []Output {
	var out []Output
	if dest == DestDropped {
		for _, r := range res.Dropped {
			out = append(out, Output{Dest: DestDropped, Record: r})
		}
		return out
	}
	for _, o := range res.Outputs {
		if o.Dest == dest || slices.Contains(o.Topics, dest) {
			out = append(out, o)
		}
	}
	return out
}

// summary says what was written, for a count that differs: the reasons of
// the error records are what a user needs first.
func summary(res Result) string {
	var nOut int
	var reasons []string
	for _, o := range res.Outputs {
		if o.Dest == DestOutput {
			nOut++
			continue
		}
		reasons = append(reasons, o.Record.Errors()...)
	}
	s := fmt.Sprintf(" (written: %d output, %d error; %d dropped", nOut, len(res.Outputs)-nOut, len(res.Dropped))
	if len(reasons) > 0 {
		if len(reasons) > 3 {
			reasons = append(reasons[:3:3], "...")
		}
		s += fmt.Sprintf("; errors: %q", reasons)
	}
	return s + ")"
}

// checkField returns what is wrong with one field, or "".
func checkField(fe FieldExpect, r *record.Record) string {
	v, ok := r.Get(fe.Field)
	switch fe.Op {
	case "exists":
		if !ok {
			return "want it present, it is absent"
		}
	case "absent":
		if ok {
			return fmt.Sprintf("want it absent, it is %s", describe(v))
		}
	case "equals":
		if !ok {
			return fmt.Sprintf("want %s, it is absent", describe(fe.Equals))
		}
		if !v.Equal(fe.Equals) {
			return fmt.Sprintf("want %s, got %s", describe(fe.Equals), describe(v))
		}
	case "matches":
		if !ok {
			return fmt.Sprintf("want a value matching %q, it is absent", fe.Matches)
		}
		if !fe.Matches.MatchString(v.Text()) {
			return fmt.Sprintf("want a value matching %q, got %s", fe.Matches, describe(v))
		}
	case "type":
		if !ok {
			return fmt.Sprintf("want a value of type %s, it is absent", fe.Type)
		}
		if v.Kind().String() != fe.Type {
			return fmt.Sprintf("want type %s, got %s", fe.Type, describe(v))
		}
	}
	return ""
}

// describe writes a value as JSON with its type: 200 (int) and "200"
// (string) look alike otherwise.
func describe(v record.Value) string {
	return fmt.Sprintf("%s (%s)", v.String(), v.Kind())
}
