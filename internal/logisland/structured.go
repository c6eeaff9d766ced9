package logisland

import (
	"fmt"

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
}

// RewriteStructured turns each StructuredStream of d that reads from a
// KafkaStructuredStreamProviderService, and writes to one or to a
// ConsoleStructuredStreamProviderService, into LogIsland's Kafka stream
// (Canonicalize then makes it Weir's): the providers' topics, serializers,
// brokers and topic settings become the stream's keys, a console writer
// becomes PrintRecords at the end of the chain (and no output topic), the
// Kafka writer's kafka.output.topics.field becomes RouteRecords at the end
// of the chain, and the providers merged are removed from the services. A
// structured stream with another provider (MQTT, Azure Event Hubs, Kafka
// Connect...) is left as it is, and is refused as unknown with its
// provider.
func RewriteStructured(d *dataflow.DataFlow) StructuredResult {
	var res StructuredResult
	byName := map[string]*dataflow.Component{}
	for i := range d.Services {
		byName[d.Services[i].Name] = &d.Services[i]
	}
	merged := map[string]bool{}
	for i := range d.Streams {
		s := &d.Streams[i]
		if s.Component.Component != StructuredStream {
			continue
		}
		rname, _ := s.Value("read.stream.service.provider")
		wname, _ := s.Value("write.stream.service.provider")
		rp, wp := byName[rname], byName[wname]
		if rp == nil || wp == nil || rp.Component != KafkaProvider || (wp.Component != KafkaProvider && wp.Component != ConsoleProvider) {
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
		takeProvider := func(c *dataflow.Component, side map[string]string, other map[string]string) {
			from := fmt.Sprintf("provider %q", c.Name)
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
				case side[p.Key] != "":
					add(from, p, side[p.Key])
				case other[p.Key] != "":
					// The other side's key: the other provider's.
				default:
					add(from, p, p.Key)
				}
			}
		}
		takeProvider(rp, readKeys, writeKeys)
		if wp.Component == KafkaProvider {
			if wp != rp {
				takeProvider(wp, writeKeys, readKeys)
			} else {
				// The same provider both reads and writes: its write side.
				for _, p := range rp.Config {
					if k := writeKeys[p.Key]; k != "" {
						add(fmt.Sprintf("provider %q", rp.Name), p, k)
					} else if p.Key == "kafka.output.topics.field" {
						takeProvider(&dataflow.Component{Name: rp.Name, Path: rp.Path, Config: []dataflow.Property{p}}, writeKeys, nil)
					}
				}
			}
		} else {
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
		// whose StructuredStream reads only its providers.
		for _, p := range s.Config {
			key := p.Key
			if k := structuredOwnKeys[p.Key]; k != "" {
				key = k
			}
			_, given := seen[key]
			switch {
			case p.Key == "read.stream.service.provider" || p.Key == "write.stream.service.provider":
			case structuredIgnored[p.Key] || given:
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
		merged[rp.Name], merged[wp.Name] = true, true
		res.Streams = append(res.Streams, i)
	}
	if len(merged) > 0 {
		kept := d.Services[:0]
		for _, c := range d.Services {
			if !merged[c.Name] || (c.Component != KafkaProvider && c.Component != ConsoleProvider) {
				kept = append(kept, c)
			}
		}
		d.Services = kept
	}
	return res
}
