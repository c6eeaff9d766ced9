package stream

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/serialize"
)

// Name is the stream's component identifier.
const Name = "pkg.stream.engine.BrokerRecordStreamParallelProcessing"

// NoTopic in the output or error topics means no topic, as in LogIsland's
// job files (kafka.output.topics: none): Weir neither creates nor writes a
// topic of that name.
const NoTopic = "none"

// withoutNone returns topics without NoTopic.
func withoutNone(topics []string) []string {
	out := topics[:0:0]
	for _, t := range topics {
		if t != NoTopic {
			out = append(out, t)
		}
	}
	return out
}

// Embedded is the broker list value that selects the in-process broker.
const Embedded = "embedded"

// The stream's keys.
const (
	KeyInputTopics       = "broker.input.topics"
	KeyInputPattern      = "broker.input.topics.pattern"
	KeyInputIgnored      = "broker.input.topics.ignored"
	KeyOutputTopics      = "broker.output.topics"
	KeyErrorTopics       = "broker.error.topics"
	KeyInputSerializer   = "broker.input.topics.serializer"
	KeyOutputSerializer  = "broker.output.topics.serializer"
	KeyErrorSerializer   = "broker.error.topics.serializer"
	KeyBrokerList        = "broker.metadata.broker.list"
	KeyCompression       = "broker.output.compression"
	KeyPartitioner       = "broker.output.partitioner"
	KeyCoordinatorQuorum = "broker.coordinator.quorum"
	KeyAutoCreate        = "broker.topic.autoCreate"
	KeyPartitions        = "broker.topic.default.partitions"
	KeyReplication       = "broker.topic.default.replicationFactor"
	KeyMaxMessageBytes   = "broker.output.max.message.bytes"
	KeyFetchMaxBytes     = "broker.input.fetch.max.bytes"
	KeyFetchMaxPartBytes = "broker.input.fetch.max.partition.bytes"
	KeyAvroInputSchema   = "avro.input.schema"
	KeyAvroOutputSchema  = "avro.output.schema"

	// Delivery guarantee keys (txn.go, docs/delivery.md).
	KeyGuarantee          = "processing.guarantee"
	KeyTransactionalID    = "processing.transactional.id"
	KeyTransactionTimeout = "processing.transaction.timeout.ms"
	KeyIsolationLevel     = "broker.input.isolation.level"
)

// Values of processing.guarantee and broker.input.isolation.level.
const (
	AtLeastOnce     = "at_least_once"
	ExactlyOnce     = "exactly_once"
	ReadCommitted   = "read_committed"
	ReadUncommitted = "read_uncommitted"
)

// DefaultMaxMessageBytes is Kafka's default message.max.bytes, rounded to
// 1 MiB: the largest record batch a broker accepts unless configured
// otherwise.
const DefaultMaxMessageBytes = 1 << 20

// Defaults of broker.input.fetch.max.bytes and
// broker.input.fetch.max.partition.bytes: what the client fetches ahead of
// processing (poll.go says why these sizes).
const (
	DefaultFetchMaxBytes     = 512 << 10
	DefaultFetchMaxPartBytes = 256 << 10
)

// maxMaxMessageBytes bounds broker.output.max.message.bytes: the client's
// write buffer (100 MiB by default) must hold one batch.
const maxMaxMessageBytes = 64 << 20

// serializerNames are the serializers a stream takes.
var serializerNames = []string{serialize.RawName, serialize.JSONName, serialize.BytesName, serialize.StringName, serialize.ExtendedJSONName, serialize.AvroName}

// serializers accepts serializerNames, and refuses LogIsland's
// KryoSerializer with its replacements rather than as a value unknown.
var serializers = component.NewValidator("one of "+strings.Join(serializerNames, ", "), func(v string) error {
	if v == serialize.KryoName {
		return errors.New(serialize.KryoRefusal)
	}
	return component.Enum(serializerNames...).Validate(v)
})

var brokerList = component.NewValidator("\"embedded\" or a comma-separated host:port list", func(s string) error {
	if s == Embedded {
		return nil
	}
	if err := component.HostPortList.Validate(s); err != nil {
		return fmt.Errorf("%w; use \"embedded\" for the in-process broker", err)
	}
	return nil
})

var topicList = component.List(component.NewValidator("topic name", func(s string) error {
	if len(s) > 249 {
		return fmt.Errorf("topic name %q is longer than 249 characters", s)
	}
	for _, c := range s {
		if !(c == '.' || c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return fmt.Errorf("topic name %q has the character %q; Kafka allows letters, digits, '.', '_' and '-'", s, c)
		}
	}
	return nil
}))

// Spec declares the stream's keys.
func Spec() component.Spec {
	return component.Spec{
		Name: Name,
		Kind: component.KindStream,
		Summary: "Consumes Kafka topics in the consumer group named by engine.app.name, runs each micro-batch through " +
			"the processor chain per partition in offset order, writes records to the output topics and error records to " +
			"the error topics, and commits offsets only after every written record is acknowledged.",
		Properties: append([]component.Property{
			{Key: KeyInputTopics, Description: "Comma-separated topics to consume. Exactly one of it and " + KeyInputPattern + " is required.", Example: "weir_in", Validator: topicList},
			{Key: KeyInputPattern, Description: "Regular expression (RE2 syntax) of the topics to consume, instead of " + KeyInputTopics + ": every topic whose whole name matches, internal topics excepted, as Kafka's subscription by pattern. Topics created later are subscribed at the client's next metadata refresh (within 5 minutes). It must not match the stream's own output or error topics.", Validator: inputPattern},
			{Key: KeyInputIgnored, Description: "Comma-separated topics not to consume although " + KeyInputTopics + " names them or " + KeyInputPattern + " matches them.", Validator: topicList},
			{Key: KeyOutputTopics, Description: "Comma-separated topics that receive every record without errors. Empty or " + NoTopic + ": records are not written (for streams that end in a sink such as BulkPut).", Validator: topicList},
			{Key: KeyErrorTopics, Description: "Comma-separated topics that receive every record with errors. " + NoTopic + ": error records are counted and not written.", Required: true, Example: "weir_errors", Validator: topicList},
			{Key: KeyInputSerializer, Description: "How input messages become records: none (raw value in record_value), " + serialize.JSONName + ", or LogIsland's " + serialize.BytesName + ", " + serialize.StringName + ", " + serialize.ExtendedJSONName + ", " + serialize.AvroName + " (with avro.input.schema). " + serialize.KryoName + " is refused (Java object serialization).", Default: serialize.RawName, Validator: serializers},
			{Key: KeyAvroInputSchema, Description: "Avro record schema (JSON) of the input topics, for " + serialize.AvroName + ".", Validator: serialize.AvroSchema},
			{Key: KeyAvroOutputSchema, Description: "Avro record schema (JSON) of the output and error topics, for " + serialize.AvroName + ".", Validator: serialize.AvroSchema},
			{Key: KeyOutputSerializer, Description: "How records are written to the output topics.", Default: serialize.JSONName, Validator: serializers},
			{Key: KeyErrorSerializer, Description: "How error records are written to the error topics.", Default: serialize.JSONName, Validator: serializers},
			{Key: KeyBrokerList, Description: "Kafka bootstrap brokers, host:port list, or \"embedded\" for the in-process broker.", Required: true, Example: Embedded, Validator: brokerList},
			{Key: KeyCompression, Description: "Compression of the batches written to the output and error topics. snappy by default: it costs the least CPU per record of the codecs measured here (none costs more, as the client copies uncompressed batches more), and every Kafka consumer reads it.", Default: "snappy", Validator: component.Enum("none", "gzip", "snappy", "lz4", "zstd")},
			{Key: KeyPartitioner, Description: "Which partition of an output or error topic a record is written to. input: the partition with the number of the record's input partition (modulo the topic's partition count), so each input partition's offset order is the order its records have on the output partition, and a replay writes to the same partition; an output topic with more partitions than the input leaves the extra ones empty. key: the murmur2 hash of the message key (the record id), as Kafka's Java client, which spreads records evenly over every partition and keeps no order.", Default: PartitionInput, Validator: component.Enum(PartitionInput, PartitionKey)},
			{Key: KeyCoordinatorQuorum, Description: "Accepted for compatibility with older job files and ignored: topics are created with the Kafka admin API."},
			{Key: KeyAutoCreate, Description: "Create missing input, output and error topics at start.", Default: "true", Validator: component.Bool},
			{Key: KeyPartitions, Description: "Partitions of topics this stream creates.", Default: "4", Validator: component.IntRange(1, 100000)},
			{Key: KeyMaxMessageBytes, Description: "Largest message written to the output and error topics, in bytes, checked before producing. The producer's batch limit and the max.message.bytes of the topics this stream creates are set to it. A record whose serialized form is larger becomes an error record (record_too_large) holding as much of record_value as fits, marked truncated; raise it (up to 64 MiB) to let large records pass, with topics and brokers that accept them.", Default: "1048576", Validator: component.IntRange(1024, maxMaxMessageBytes)},
			{Key: KeyFetchMaxBytes, Description: "Most bytes one fetch request asks the brokers for (Kafka's fetch.max.bytes), as stored: compressed input takes several times more once decompressed. Two fetches are in flight or buffered at a time, so it bounds the memory held ahead of processing. The default keeps the sample job's peak RSS about 10 MB lower than 1 MiB at the same CPU per record, and lines of 10 KB about 20 MB lower. Raise it, with broker.input.fetch.max.partition.bytes, for brokers far away: each fetch is a round trip. A batch larger than it is still fetched whole.", Default: fmt.Sprint(DefaultFetchMaxBytes), Validator: component.IntRange(16<<10, maxMaxMessageBytes)},
			{Key: KeyFetchMaxPartBytes, Description: "Most bytes one fetch takes from one partition (Kafka's max.partition.fetch.bytes); see broker.input.fetch.max.bytes.", Default: fmt.Sprint(DefaultFetchMaxPartBytes), Validator: component.IntRange(16<<10, maxMaxMessageBytes)},
			{Key: KeyReplication, Description: "Replication factor of topics this stream creates.", Default: "1", Validator: component.IntRange(1, 32767)},
		}, append(guaranteeProperties(), securityProperties()...)...),
		Config: component.ConfigOf[StreamConfig](),
	}
}

// StreamConfig is the stream's configuration as validation decodes it: one
// field per key. Decode turns it into Config, the form the stream runs
// with.
type StreamConfig struct {
	InputTopics []string `key:"broker.input.topics"`
	// InputTopicsSet and InputPatternSet say whether the keys were given:
	// exactly one of them must be.
	InputTopicsSet   bool     `key:"broker.input.topics,set"`
	InputPattern     string   `key:"broker.input.topics.pattern"`
	InputPatternSet  bool     `key:"broker.input.topics.pattern,set"`
	IgnoredInputs    []string `key:"broker.input.topics.ignored"`
	OutputTopics     []string `key:"broker.output.topics"`
	ErrorTopics      []string `key:"broker.error.topics"`
	InputSerializer  string   `key:"broker.input.topics.serializer"`
	OutputSerializer string   `key:"broker.output.topics.serializer"`
	ErrorSerializer  string   `key:"broker.error.topics.serializer"`
	AvroInputSchema  string   `key:"avro.input.schema"`
	AvroOutputSchema string   `key:"avro.output.schema"`
	BrokerList       string   `key:"broker.metadata.broker.list"`
	Compression      string   `key:"broker.output.compression"`
	Partitioner      string   `key:"broker.output.partitioner"`
	// broker.coordinator.quorum is accepted from older job files; topics
	// are created with the Kafka admin API.
	_                 struct{} `key:"broker.coordinator.quorum,ignored"`
	AutoCreate        bool     `key:"broker.topic.autoCreate"`
	Partitions        int      `key:"broker.topic.default.partitions"`
	Replication       int      `key:"broker.topic.default.replicationFactor"`
	MaxMessageBytes   int      `key:"broker.output.max.message.bytes"`
	FetchMaxBytes     int      `key:"broker.input.fetch.max.bytes"`
	FetchMaxPartBytes int      `key:"broker.input.fetch.max.partition.bytes"`

	GuaranteeConfig
	Security

	// inputs is InputTopics less IgnoredInputs, found by Validate.
	inputs []string
}

// Validate checks what single keys cannot: the stream's inputs and its
// Avro schemas.
func (c *StreamConfig) Validate() error {
	c.inputs = withoutIgnored(c.InputTopics, c.IgnoredInputs)
	return errors.Join(c.checkInputs(), c.checkAvro())
}

// inputPattern accepts a regular expression that Go compiles once
// anchored at both ends, as ConsumerOpts anchors it.
var inputPattern = component.NewValidator("regular expression (RE2 syntax)", func(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("must not be empty")
	}
	if _, err := regexp.Compile(anchored(s)); err != nil {
		return fmt.Errorf("invalid regular expression: %w", err)
	}
	return nil
})

// anchored makes pattern match whole topic names: Kafka's Java consumer
// matches a subscription pattern against the whole name (LogIsland's
// kafka.input.topics.pattern is one), Go's regexp anywhere in it.
func anchored(pattern string) string { return "^(?:" + pattern + ")$" }

// checkInputs requires exactly one of the topic list and the pattern, and
// refuses a pattern that matches one of the stream's own output or error
// topics: the stream would read back what it writes, without end.
func (c *StreamConfig) checkInputs() error {
	list, pattern := c.InputTopicsSet, c.InputPatternSet
	switch {
	case list && pattern:
		return fmt.Errorf("%s and %s are both set; a stream consumes either named topics or a pattern, set one", KeyInputTopics, KeyInputPattern)
	case !list && !pattern:
		return fmt.Errorf("neither %s nor %s is set; set one: the topics to consume, or a pattern of their names", KeyInputTopics, KeyInputPattern)
	case list && len(c.inputs) == 0:
		return fmt.Errorf("%s ignores every topic of %s: the stream would consume nothing", KeyInputIgnored, KeyInputTopics)
	case !pattern:
		return nil
	}
	re, err := regexp.Compile(anchored(c.InputPattern))
	if err != nil {
		return nil // the property's validator reports it
	}
	var errs []error
	for _, o := range []struct {
		key    string
		topics []string
	}{{KeyOutputTopics, c.OutputTopics}, {KeyErrorTopics, c.ErrorTopics}} {
		for _, t := range withoutNone(o.topics) {
			if re.MatchString(t) && !slices.Contains(c.IgnoredInputs, t) {
				errs = append(errs, fmt.Errorf("%s %q matches %s topic %q: the stream would consume what it writes; narrow the pattern or add the topic to %s", KeyInputPattern, c.InputPattern, o.key, t, KeyInputIgnored))
			}
		}
	}
	return errors.Join(errs...)
}

// withoutIgnored returns topics without those in ignored.
func withoutIgnored(topics, ignored []string) []string {
	out := topics[:0:0]
	for _, t := range topics {
		if !slices.Contains(ignored, t) {
			out = append(out, t)
		}
	}
	return out
}

// ConsumerOpts are the client options that subscribe to the stream's
// input: its topics, or every topic whose whole name matches its pattern
// (franz-go's regex consumption, which leaves internal topics out), less
// the ignored ones.
func (c Config) ConsumerOpts() []kgo.Opt {
	if c.InputPattern == "" {
		return []kgo.Opt{kgo.ConsumeTopics(c.Inputs...)}
	}
	opts := []kgo.Opt{kgo.ConsumeTopics(anchored(c.InputPattern)), kgo.ConsumeRegex()}
	if len(c.IgnoredInputs) > 0 {
		ex := make([]string, len(c.IgnoredInputs))
		for i, t := range c.IgnoredInputs {
			ex[i] = "^" + regexp.QuoteMeta(t) + "$"
		}
		opts = append(opts, kgo.ConsumeExcludeTopics(ex...))
	}
	return opts
}

// Config is a stream's own configuration, typed. The broker list stays as
// written: the engine resolves it into seed addresses (starting the embedded
// broker for "embedded") before it builds the stream.
type Config struct {
	Name       string // the stream's name in the dataflow
	BrokerList string // broker.metadata.broker.list

	// Inputs are the topics to consume, less IgnoredInputs; empty when
	// InputPattern is set.
	Inputs, Outputs, Errors []string
	// InputPattern is broker.input.topics.pattern as written (ConsumerOpts
	// anchors it), and IgnoredInputs broker.input.topics.ignored.
	InputPattern  string
	IgnoredInputs []string
	// Serializer identifiers of the input, output and error topics.
	InSer, OutSer, ErrSer string
	// InSchema and OutSchema are avro.input.schema and avro.output.schema.
	InSchema, OutSchema string

	Compression string // broker.output.compression
	Partitioner string // broker.output.partitioner
	AutoCreate  bool
	Partitions  int32
	Replication int16
	// MaxMessageBytes is broker.output.max.message.bytes.
	MaxMessageBytes int
	// FetchMaxBytes and FetchMaxPartBytes are broker.input.fetch.max.bytes
	// and broker.input.fetch.max.partition.bytes.
	FetchMaxBytes, FetchMaxPartBytes int

	Security Security // broker.security.protocol, broker.sasl.*, broker.ssl.*

	Guarantee Guarantee // processing.guarantee and what goes with it (txn.go)
}

// Decode returns the configuration a stream runs with from its validated
// configuration. Its error only guards against a configuration that was not
// validated against Spec.
func Decode(name string, conf component.Config) (Config, error) {
	c, err := component.Typed[StreamConfig](conf)
	if err != nil {
		return Config{}, err
	}
	return Config{
		Name: name, BrokerList: c.BrokerList,
		Inputs: c.inputs, InputPattern: c.InputPattern, IgnoredInputs: c.IgnoredInputs,
		Outputs: withoutNone(c.OutputTopics), Errors: withoutNone(c.ErrorTopics),
		InSer: c.InputSerializer, OutSer: c.OutputSerializer, ErrSer: c.ErrorSerializer,
		InSchema: c.AvroInputSchema, OutSchema: c.AvroOutputSchema,
		Compression: c.Compression, Partitioner: c.Partitioner,
		AutoCreate: c.AutoCreate, Partitions: int32(c.Partitions), Replication: int16(c.Replication),
		MaxMessageBytes: c.MaxMessageBytes, FetchMaxBytes: c.FetchMaxBytes, FetchMaxPartBytes: c.FetchMaxPartBytes,
		Security:  c.Security,
		Guarantee: c.guarantee(),
	}, nil
}

// checkAvro refuses AvroSerializer without the schema of its side.
func (c *StreamConfig) checkAvro() error {
	var errs []error
	if c.InputSerializer == serialize.AvroName && c.AvroInputSchema == "" {
		errs = append(errs, fmt.Errorf("%s reads with %s: set %s", KeyInputSerializer, serialize.AvroName, KeyAvroInputSchema))
	}
	for _, o := range []struct{ key, ser string }{{KeyOutputSerializer, c.OutputSerializer}, {KeyErrorSerializer, c.ErrorSerializer}} {
		if o.ser == serialize.AvroName && c.AvroOutputSchema == "" {
			errs = append(errs, fmt.Errorf("%s writes with %s: set %s", o.key, serialize.AvroName, KeyAvroOutputSchema))
		}
	}
	return errors.Join(errs...)
}

// NewSerializer builds the serializer name of one side of a stream;
// schema is that side's Avro schema, for AvroSerializer.
func NewSerializer(reg *component.Registry, name, schema string) (component.Serializer, error) {
	spec, err := reg.LookupKind(name, component.KindSerializer)
	if err != nil {
		return nil, err
	}
	var props map[string]string
	if _, ok := spec.Property(serialize.KeySchema); ok {
		props = map[string]string{serialize.KeySchema: schema}
	}
	conf, probs := component.NewConfig(spec, props)
	if len(probs) > 0 {
		return nil, probs
	}
	return spec.NewSerializer(conf)
}
