package logisland

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/dataflow"
)

// LogIsland's structured stream and the provider services it reads from
// and writes to (prefix changed).
const (
	StructuredStream = "pkg.stream.spark.structured.StructuredStream"
	KafkaProvider    = "pkg.stream.spark.structured.provider.KafkaStructuredStreamProviderService"
	ConsoleProvider  = "pkg.stream.spark.structured.provider.ConsoleStructuredStreamProviderService"
	// kafkaStream is LogIsland's Kafka stream, which a structured stream
	// becomes before its keys are mapped to Weir's stream (Canonicalize).
	kafkaStream = "pkg.stream.spark.KafkaRecordStreamParallelProcessing"
)

// Weir's processors a structured stream's write provider adds to the
// chain (console.Name and fields.RouteRecordsName).
const (
	ConsoleProcessor = "pkg.processor.console.PrintRecords"
	RouteProcessor   = "pkg.processor.RouteRecords"
)

// The structured stream's own keys as LogIsland's older job files write
// them (the topics on the stream, the provider only connecting), mapped to
// the Kafka stream's.
var structuredOwnKeys = map[string]string{
	"read.topics":             "kafka.input.topics",
	"write.topics":            "kafka.output.topics",
	"read.topics.serializer":  "kafka.input.topics.serializer",
	"write.topics.serializer": "kafka.output.topics.serializer",
}

// structuredIgnored are the keys of a structured stream and of its Kafka
// provider that tune Spark's structured streaming: its state and grouping
// (Weir runs each partition's records in offset order through the chain,
// with no state between batches), its output mode, its checkpoints and
// shuffles, where a new query starts (Weir starts a new consumer group at
// the earliest offset and then follows its commits) and the key
// serializers (Weir's message key is the record id).
var structuredIgnored = set(
	"group.by.fields", "groupby", "chunk.size", "is.state.full", "state.timeout.type", "state.timeout.ms",
	"output.mode", "state.window.field", "state.window.timeout.ms", "spark.base.checkpoint.path",
	"spark.sql.shuffle.partitions", "read.topics.key.serializer", "write.topics.key.serializer",
	"read.key.serializer", "write.key.serializer", "kafka.startingOffsets", "kafka.failOnDataLoss",
	"kafka.maxOffsetsPerTrigger",
)

// The Kafka provider's keys by side: what the reading provider gives the
// stream, what the writing one gives, and what either gives.
var (
	readKeys = map[string]string{
		"kafka.input.topics":            "kafka.input.topics",
		"kafka.input.topics.pattern":    "kafka.input.topics.pattern",
		"kafka.input.topics.ignored":    "kafka.input.topics.ignored",
		"kafka.input.topics.serializer": "kafka.input.topics.serializer",
		"read.value.serializer":         "kafka.input.topics.serializer",
		"read.value.schema":             "avro.input.schema",
		"avro.input.schema":             "avro.input.schema",
	}
	writeKeys = map[string]string{
		"kafka.output.topics":            "kafka.output.topics",
		"kafka.output.topics.serializer": "kafka.output.topics.serializer",
		"write.value.serializer":         "kafka.output.topics.serializer",
		"write.value.schema":             "avro.output.schema",
		"avro.output.schema":             "avro.output.schema",
	}
)

// StructuredProblem is a structured stream that cannot become Weir's
// stream as written.
type StructuredProblem struct {
	Path string
	Line int
	Msg  string
}

// StructuredResult is what RewriteStructured did.
type StructuredResult struct {
	// Streams are the indexes in d.Streams of the streams rewritten: their
	// keys are LogIsland's Kafka stream's, for Canonicalize.
	Streams []int
	// Ignored are the keys dropped, with the path of their component.
	Ignored []string
	// Problems are refusals.
	Problems []StructuredProblem
	// Unused are the paths of the Kafka and console providers that no
	// structured stream reads or writes through: they are dropped.
	Unused []string
}

// The provider keys that say what a stream reads (LogIsland's
// KafkaStructuredStreamProviderService requires one of the first two).
const (
	inputTopics  = "kafka.input.topics"
	inputPattern = "kafka.input.topics.pattern"
	inputIgnored = "kafka.input.topics.ignored"
)

// RewriteStructured turns each StructuredStream of d that reads from one
// or more KafkaStructuredStreamProviderServices, and writes to one or to a
// ConsoleStructuredStreamProviderService, into LogIsland's Kafka stream
// (Canonicalize then makes it Weir's): the providers' topics (or topic
// pattern), serializers, brokers and topic settings become the stream's
// keys, a console writer becomes PrintRecords at the end of the chain (and
// no output topic), the Kafka writer's kafka.output.topics.field becomes
// RouteRecords at the end of the chain, and the providers merged are
// removed from the services. Several readers (LogIsland's multi-source, a
// union of what each reads) become one subscription (mergeReaders). A
// structured stream with another provider (MQTT, Azure Event Hubs, Kafka
// Connect...) is left as it is, and is refused as unknown with its
// provider. Kafka and console providers that no structured stream names
// are dropped and listed in Unused: in LogIsland they do nothing until a
// stream uses them.
func RewriteStructured(d *dataflow.DataFlow) StructuredResult {
	var res StructuredResult
	byName := map[string]*dataflow.Component{}
	for i := range d.Services {
		byName[d.Services[i].Name] = &d.Services[i]
	}
	merged, named := map[string]bool{}, map[string]bool{}
	for i := range d.Streams {
		s := &d.Streams[i]
		if s.Component.Component != StructuredStream {
			continue
		}
		rnames, _ := s.Value("read.stream.service.provider")
		wname, _ := s.Value("write.stream.service.provider")
		named[wname] = true
		var readers []*dataflow.Component
		ok := true
		for _, n := range component.SplitList(rnames) {
			named[n] = true
			rp := byName[n]
			ok = ok && rp != nil && rp.Component == KafkaProvider
			readers = append(readers, rp)
		}
		wp := byName[wname]
		if !ok || len(readers) == 0 || wp == nil || (wp.Component != KafkaProvider && wp.Component != ConsoleProvider) {
			continue
		}
		cpath := s.Path + ".configuration"
		var out []dataflow.Property
		seen := map[string]int{} // key -> index in out
		add := func(from string, p dataflow.Property, key string) {
			if i, dup := seen[key]; dup {
				if out[i].Value != p.Value {
					res.Problems = append(res.Problems, StructuredProblem{Path: cpath, Line: p.Line,
						Msg: fmt.Sprintf("%s gives %s %q where %s gives %q (line %d); a stream has one", from, p.Key, p.Value, out[i].Written, out[i].Value, out[i].Line)})
				}
				return
			}
			seen[key] = len(out)
			// Written holds where the key came from until Canonicalize
			// sets the name as written.
			p.Written = from + " " + p.Key
			p.Key = key
			out = append(out, p)
		}
		// What each reader reads, gathered before it is merged.
		inputs := make([]readerInput, 0, len(readers))
		takeProvider := func(c *dataflow.Component, side map[string]string, other map[string]string) {
			from := fmt.Sprintf("provider %q", c.Name)
			in := readerInput{provider: c}
			for _, p := range c.Config {
				switch {
				case structuredIgnored[p.Key]:
					res.Ignored = append(res.Ignored, c.Path+".configuration."+p.Key)
				case p.Key == "kafka.output.topics.field":
					if side["kafka.output.topics"] != "" {
						s.Pipeline.Processors = append(s.Pipeline.Processors, dataflow.Component{
							Name: "route_by_" + p.Value, Component: RouteProcessor, Line: p.Line,
							Path:   fmt.Sprintf("%s.processorConfigurations[route_by_%s]", s.Path, p.Value),
							Config: []dataflow.Property{{Key: "output.topic.field", Value: p.Value, Line: p.Line}},
						})
					}
				case side[p.Key] != "" && (p.Key == inputTopics || p.Key == inputPattern || p.Key == inputIgnored):
					in.set(p)
				case side[p.Key] != "":
					add(from, p, side[p.Key])
				case other[p.Key] != "":
					// The other side's key: the other provider's.
				default:
					add(from, p, p.Key)
				}
			}
			if side["kafka.input.topics"] != "" {
				inputs = append(inputs, in)
			}
		}
		for _, rp := range readers {
			takeProvider(rp, readKeys, writeKeys)
		}
		if len(inputs) == 1 {
			in := inputs[0]
			for _, p := range []*dataflow.Property{in.topics, in.pattern, in.ignored} {
				if p != nil {
					add(fmt.Sprintf("provider %q", in.provider.Name), *p, p.Key)
				}
			}
		} else {
			line := s.Line
			for _, p := range s.Config {
				if p.Key == "read.stream.service.provider" {
					line = p.Line
				}
			}
			from := "providers " + rnames
			props, probs := mergeReaders(inputs, line)
			for _, p := range props {
				add(from, p, p.Key)
			}
			for _, pr := range probs {
				pr.Path = cpath
				res.Problems = append(res.Problems, pr)
			}
		}
		_, topicsGiven := seen[inputTopics]
		_, patternGiven := seen[inputPattern]
		switch {
		case wp.Component == KafkaProvider && slices.Contains(readers, wp):
			// The same provider both reads and writes: its write side.
			for _, p := range wp.Config {
				if k := writeKeys[p.Key]; k != "" {
					add(fmt.Sprintf("provider %q", wp.Name), p, k)
				} else if p.Key == "kafka.output.topics.field" {
					takeProvider(&dataflow.Component{Name: wp.Name, Path: wp.Path, Config: []dataflow.Property{p}}, writeKeys, nil)
				}
			}
		case wp.Component == KafkaProvider:
			takeProvider(wp, writeKeys, readKeys)
		default:
			add(fmt.Sprintf("provider %q", wp.Name), dataflow.Property{Key: "kafka.output.topics", Value: "none", Line: wp.Line}, "kafka.output.topics")
			proc := dataflow.Component{Name: wp.Name, Component: ConsoleProcessor, Line: wp.Line,
				Path: fmt.Sprintf("%s.processorConfigurations[%s]", s.Path, wp.Name)}
			for _, p := range wp.Config {
				if structuredIgnored[p.Key] {
					res.Ignored = append(res.Ignored, wp.Path+".configuration."+p.Key)
					continue
				}
				proc.Config = append(proc.Config, p)
			}
			s.Pipeline.Processors = append(s.Pipeline.Processors, proc)
		}
		// The stream's own topics and serializers (LogIsland's older
		// structured streams): the provider's win, as in LogIsland 1.4,
		// whose StructuredStream reads only its providers. A provider's
		// pattern wins over the stream's topics too.
		for _, p := range s.Config {
			key := p.Key
			if k := structuredOwnKeys[p.Key]; k != "" {
				key = k
			}
			_, given := seen[key]
			switch {
			case p.Key == "read.stream.service.provider" || p.Key == "write.stream.service.provider":
			case structuredIgnored[p.Key] || given || (key == inputTopics && patternGiven) || (key == inputPattern && topicsGiven):
				res.Ignored = append(res.Ignored, cpath+"."+p.Key)
			default:
				add("the stream", p, key)
			}
		}
		if _, ok := seen["kafka.error.topics"]; !ok {
			// A structured stream writes no error records to Kafka.
			add("the stream", dataflow.Property{Key: "kafka.error.topics", Value: "none", Line: s.Line}, "kafka.error.topics")
		}
		for i := range out {
			out[i].Written = ""
		}
		s.Component.Component = kafkaStream
		s.Config = out
		for _, rp := range readers {
			merged[rp.Name] = true
		}
		merged[wp.Name] = true
		res.Streams = append(res.Streams, i)
	}
	kept := d.Services[:0]
	for _, c := range d.Services {
		provider := c.Component == KafkaProvider || c.Component == ConsoleProvider
		if provider && !named[c.Name] {
			res.Unused = append(res.Unused, c.Path)
			continue
		}
		if !provider || !merged[c.Name] {
			kept = append(kept, c)
		}
	}
	d.Services = kept
	return res
}

// readerInput is what one reading provider subscribes to: its
// kafka.input.topics or kafka.input.topics.pattern, less its
// kafka.input.topics.ignored.
type readerInput struct {
	provider                 *dataflow.Component
	topics, pattern, ignored *dataflow.Property
}

func (in *readerInput) set(p dataflow.Property) {
	switch p.Key {
	case inputTopics:
		in.topics = &p
	case inputPattern:
		in.pattern = &p
	default:
		in.ignored = &p
	}
}

// reads reports whether the reader subscribes to topic; re is its
// pattern, anchored as Kafka matches it (whole names), or nil.
func (in *readerInput) reads(topic string, re *regexp.Regexp) bool {
	if in.ignored != nil && slices.Contains(component.SplitList(in.ignored.Value), topic) {
		return false
	}
	if re != nil {
		return re.MatchString(topic)
	}
	return in.topics != nil && slices.Contains(component.SplitList(in.topics.Value), topic)
}

// mergeReaders makes one subscription of several readers', as LogIsland's
// StructuredStream unions what each reads: their topic lists joined when
// none has a pattern; otherwise one pattern, the alternation of each
// reader's pattern and topics, with as ignored the topics some reader
// ignores and no other reads (so a topic one reader leaves out and another
// names, as in LogIsland's "rewind" jobs, is read). The properties it
// returns carry line, the line of read.stream.service.provider. Each
// reader must set exactly one of kafka.input.topics and
// kafka.input.topics.pattern, as LogIsland requires.
func mergeReaders(inputs []readerInput, line int) ([]dataflow.Property, []StructuredProblem) {
	var probs []StructuredProblem
	res := make([]*regexp.Regexp, len(inputs))
	hasPattern := false
	for i, in := range inputs {
		switch {
		case in.topics != nil && in.pattern != nil:
			probs = append(probs, StructuredProblem{Line: in.pattern.Line, Msg: fmt.Sprintf("provider %q sets both %s and %s; LogIsland requires one", in.provider.Name, inputTopics, inputPattern)})
		case in.topics == nil && in.pattern == nil:
			probs = append(probs, StructuredProblem{Line: in.provider.Line, Msg: fmt.Sprintf("provider %q sets neither %s nor %s; LogIsland requires one", in.provider.Name, inputTopics, inputPattern)})
		case in.pattern != nil:
			hasPattern = true
			re, err := regexp.Compile("^(?:" + in.pattern.Value + ")$")
			if err != nil {
				probs = append(probs, StructuredProblem{Line: in.pattern.Line, Msg: fmt.Sprintf("provider %q: %s %q is not a regular expression Weir reads (RE2 syntax): %v", in.provider.Name, inputPattern, in.pattern.Value, err)})
			}
			res[i] = re
		}
	}
	if len(probs) > 0 {
		return nil, probs
	}
	var topics, alts, ignored []string
	for _, in := range inputs {
		if in.pattern != nil {
			alts = append(alts, "(?:"+in.pattern.Value+")")
			continue
		}
		for _, t := range component.SplitList(in.topics.Value) {
			if in.reads(t, nil) && !slices.Contains(topics, t) {
				topics = append(topics, t)
				alts = append(alts, regexp.QuoteMeta(t))
			}
		}
	}
	if !hasPattern {
		return []dataflow.Property{{Key: inputTopics, Value: strings.Join(topics, ","), Line: line}}, nil
	}
	for i, in := range inputs {
		if in.ignored == nil {
			continue
		}
		for _, t := range component.SplitList(in.ignored.Value) {
			readByOther := false
			for j := range inputs {
				readByOther = readByOther || (j != i && inputs[j].reads(t, res[j]))
			}
			if !readByOther && !slices.Contains(ignored, t) {
				ignored = append(ignored, t)
			}
		}
	}
	out := []dataflow.Property{{Key: inputPattern, Value: strings.Join(alts, "|"), Line: line}}
	if len(ignored) > 0 {
		out = append(out, dataflow.Property{Key: inputIgnored, Value: strings.Join(ignored, ","), Line: line})
	}
	return out, nil
}
