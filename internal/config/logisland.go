package config

import (
	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/logisland"
)

// logIsland maps LogIsland's names of the engine, the stream and their keys
// in c to Weir's, as soon as c is read (internal/logisland), so that all
// that follows sees Weir's names only. A key given under both names is
// refused at the later one, with its path, as a key given twice is. Keys
// Weir has no equivalent for are dropped and listed in the job's Ignored.
// cpath is the path of c's configuration.
func (p *parser) logIsland(job *Job, c *dataflow.Component, cpath string) {
	res := logisland.Canonicalize(c)
	for _, cl := range res.Clashes {
		p.probs = append(p.probs, component.Problem{Path: cpath, Key: cl.Canonical, Line: cl.Given.Line, Msg: cl.Message()})
	}
	// A value the walk could not know (an unset variable) was recorded
	// under the key as written; validation names the key as renamed.
	if keys := p.sup.keys[cpath]; keys != nil {
		for _, prop := range c.Config {
			if prop.Written != "" && keys[prop.Written] {
				keys[prop.Key] = true
			}
		}
	}
	// A misspelt LogIsland key is unknown to Weir too; validation would
	// suggest one of Weir's keys, far from it, or none. Say which of
	// LogIsland's keys it looks like instead, once.
	for _, m := range res.Misspelt {
		p.probs = append(p.probs, component.Problem{Path: cpath, Key: m.Given.Key, Line: m.Given.Line, Msg: m.Message()})
		p.sup.unknownKey(cpath, m.Given.Key)
	}
	for _, w := range res.Warnings {
		job.Warnings = append(job.Warnings, cpath+": "+w)
	}
	for _, prop := range res.Ignored {
		job.Ignored = append(job.Ignored, cpath+"."+prop.Key)
	}
}

// structured turns LogIsland's structured streams with Kafka and console
// providers into Weir's streams (logisland.RewriteStructured), once every
// stream and service is read, and maps the keys they take from their
// providers as any LogIsland stream's.
func (p *parser) structured(job *Job) {
	res := logisland.RewriteStructured(job.DataFlow)
	for _, pr := range res.Problems {
		p.probs = append(p.probs, component.Problem{Path: pr.Path, Line: pr.Line, Msg: pr.Msg})
	}
	job.Ignored = append(job.Ignored, res.Ignored...)
	for _, path := range res.Unused {
		job.Warnings = append(job.Warnings, path+": no structured stream reads or writes through this provider; it is dropped")
	}
	for _, i := range res.Streams {
		s := &job.DataFlow.Streams[i]
		if _, ok := s.Value("kafka.metadata.broker.list"); !ok {
			// LogIsland's providers default to its KAFKA_BROKERS
			// (DefaultConfigValues, sandbox:9092 when unset): Weir takes
			// the variable when it is set, and refuses the stream
			// otherwise, as any stream without brokers.
			if v, set := p.getenv("KAFKA_BROKERS"); set && v != "" {
				s.Config = append(s.Config, dataflow.Property{Key: "kafka.metadata.broker.list", Value: v, Line: s.Line})
				job.Warnings = append(job.Warnings, s.Path+": no provider names kafka.metadata.broker.list; the brokers are KAFKA_BROKERS's, as LogIsland's default")
			}
		}
		p.logIsland(job, &s.Component, s.Path+".configuration")
	}
}
