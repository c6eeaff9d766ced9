package stream

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/component/configtest"
	"github.com/weir-streams/weir/internal/serialize"
)

// TestStreamConfig decodes the stream's configurations from testdata: the
// defaults, every key given, and each refusal of Validate.
func TestStreamConfig(t *testing.T) {
	for _, tt := range []struct {
		id      string
		want    *StreamConfig
		wantErr string
	}{
		{id: "defaults", want: withDefaults(StreamConfig{InputTopics: []string{"weir_in"}, InputTopicsSet: true,
			ErrorTopics: []string{"weir_errors"}, inputs: []string{"weir_in"}})},
		{id: "full", want: &StreamConfig{
			InputTopics: []string{"in_a", "in_b", "in_c"}, InputTopicsSet: true, IgnoredInputs: []string{"in_c"},
			OutputTopics: []string{"out"}, ErrorTopics: []string{NoTopic},
			InputSerializer: serialize.AvroName, OutputSerializer: serialize.StringName, ErrorSerializer: serialize.RawName,
			AvroInputSchema: `{"type":"record","name":"r","fields":[{"name":"a","type":"string"}]}`,
			BrokerList:      "k1:9092,k2:9092", Compression: "zstd", Partitioner: PartitionKey,
			Partitions: 12, Replication: 3, MaxMessageBytes: 4 << 20, FetchMaxBytes: 1 << 20, FetchMaxPartBytes: 64 << 10,
			GuaranteeConfig: GuaranteeConfig{Guarantee: ExactlyOnce, IsolationLevel: ReadUncommitted, TransactionalID: "pod-0", TransactionTimeout: time.Minute},
			Security: Security{Protocol: ProtocolSASLSSL, Mechanism: MechanismSCRAM512, Username: "weir", Password: "s3cret",
				CAFile: "/etc/kafka/ca.pem", EndpointID: "none"},
			inputs: []string{"in_a", "in_b"},
		}},
		{id: "pattern", want: withDefaults(StreamConfig{InputPattern: "logs_.*", InputPatternSet: true,
			IgnoredInputs: []string{"logs_errors"}, ErrorTopics: []string{"logs_errors"}})},
		{id: "both_inputs", wantErr: "broker.input.topics and broker.input.topics.pattern are both set"},
		{id: "no_input", wantErr: "neither broker.input.topics nor broker.input.topics.pattern is set"},
		{id: "all_ignored", wantErr: "broker.input.topics.ignored ignores every topic of broker.input.topics"},
		{id: "pattern_reads_output", wantErr: `broker.input.topics.pattern "weir_.*" matches broker.output.topics topic "weir_out"`},
		{id: "avro_without_schemas", wantErr: "broker.input.topics.serializer reads with pkg.serializer.AvroSerializer: set avro.input.schema"},
	} {
		t.Run(tt.id, func(t *testing.T) {
			got, err := configtest.Decode[StreamConfig](Spec(), "testdata/config.yaml", tt.id)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decoded\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

// withDefaults returns c, a stream's inputs and outputs, with the default
// of every other key.
func withDefaults(c StreamConfig) *StreamConfig {
	c.InputSerializer, c.OutputSerializer, c.ErrorSerializer = serialize.RawName, serialize.JSONName, serialize.JSONName
	c.BrokerList, c.Compression, c.Partitioner, c.AutoCreate = Embedded, "snappy", PartitionInput, true
	c.Partitions, c.Replication, c.MaxMessageBytes = 4, 1, DefaultMaxMessageBytes
	c.FetchMaxBytes, c.FetchMaxPartBytes = DefaultFetchMaxBytes, DefaultFetchMaxPartBytes
	c.GuaranteeConfig = GuaranteeConfig{Guarantee: AtLeastOnce, TransactionTimeout: 30 * time.Second}
	c.Security = Security{Protocol: ProtocolPlaintext, Mechanism: MechanismPlain, EndpointID: "https"}
	return &c
}

// TestStreamConfigJoinsProblems: a pattern that matches both an output and
// an error topic, and Avro output without a schema, are each reported.
func TestStreamConfigJoinsProblems(t *testing.T) {
	c := StreamConfig{InputPattern: "w.*", InputPatternSet: true, OutputTopics: []string{"w_out"}, ErrorTopics: []string{"w_err"},
		OutputSerializer: serialize.AvroName, ErrorSerializer: serialize.AvroName}
	err := c.Validate()
	if err == nil {
		t.Fatal("accepted")
	}
	if n := len(err.(interface{ Unwrap() []error }).Unwrap()); n != 2 {
		t.Errorf("%d problems, want the inputs' and the schemas': %v", n, err)
	}
	for _, want := range []string{`topic "w_out"`, `topic "w_err"`, "broker.output.topics.serializer writes", "broker.error.topics.serializer writes"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v does not say %q", err, want)
		}
	}
}
