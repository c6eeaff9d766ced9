package stream

import (
	"fmt"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/serialize"
)

// Name is the stream's component identifier.
const Name = "pkg.stream.engine.BrokerRecordStreamParallelProcessing"

// Embedded is the broker list value that selects the in-process broker.
const Embedded = "embedded"

var serializers = component.Enum(serialize.RawName, serialize.JSONName)

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
		Properties: []component.Property{
			{Key: "broker.input.topics", Description: "Comma-separated topics to consume.", Required: true, Validator: topicList},
			{Key: "broker.output.topics", Description: "Comma-separated topics that receive every record without errors. Empty: records are not written (for streams that end in a sink such as BulkPut).", Validator: topicList},
			{Key: "broker.error.topics", Description: "Comma-separated topics that receive every record with errors.", Required: true, Validator: topicList},
			{Key: "broker.input.topics.serializer", Description: "How input messages become records: none (raw value in record_value) or " + serialize.JSONName + ".", Default: serialize.RawName, Validator: serializers},
			{Key: "broker.output.topics.serializer", Description: "How records are written to the output topics.", Default: serialize.JSONName, Validator: serializers},
			{Key: "broker.error.topics.serializer", Description: "How error records are written to the error topics.", Default: serialize.JSONName, Validator: serializers},
			{Key: "broker.metadata.broker.list", Description: "Kafka bootstrap brokers, host:port list, or \"embedded\" for the in-process broker.", Required: true, Validator: brokerList},
			{Key: "broker.output.compression", Description: "Compression of the batches written to the output and error topics. snappy by default: it costs the least CPU per record of the codecs measured here (none costs more, as the client copies uncompressed batches more), and every Kafka consumer reads it.", Default: "snappy", Validator: component.Enum("none", "gzip", "snappy", "lz4", "zstd")},
			{Key: "broker.coordinator.quorum", Description: "Accepted for compatibility with older job files and ignored: topics are created with the Kafka admin API."},
			{Key: "broker.topic.autoCreate", Description: "Create missing input, output and error topics at start.", Default: "true", Validator: component.Bool},
			{Key: "broker.topic.default.partitions", Description: "Partitions of topics this stream creates.", Default: "4", Validator: component.IntRange(1, 100000)},
			{Key: "broker.topic.default.replicationFactor", Description: "Replication factor of topics this stream creates.", Default: "1", Validator: component.IntRange(1, 32767)},
		},
	}
}
