package stream

import "github.com/twmb/franz-go/pkg/kgo"

// Values of broker.output.partitioner.
const (
	// PartitionInput writes a record to the partition whose number is its
	// input partition's, modulo the output topic's partition count.
	PartitionInput = "input"
	// PartitionKey writes a record to the partition that the murmur2 hash
	// of its message key (the record id) picks, as the Java client's
	// default partitioner does.
	PartitionKey = "key"
)

// partitionerOpts returns the client options that place written messages
// for a broker.output.partitioner value (validated by the spec): none for
// "key", whose placement is the client's default partitioner.
//
// With "input", produce sets each message's Partition to its record's
// input partition before handing it to the client, and the partitioner
// only reduces it modulo the topic's partition count, which the client
// passes in from its metadata. The partitioner is consistent (the client
// never moves a message to another partition when its own is briefly
// unwritable), so the order of an input partition is the order on the
// output partition, and a replay writes to the same partition as the
// first run.
//
// With "key", the client's default partitioner hashes a message's key
// with murmur2 and ignores the Partition that produce set.
func partitionerOpts(name string) []kgo.Opt {
	if name == PartitionKey {
		return nil
	}
	return []kgo.Opt{kgo.RecordPartitioner(kgo.BasicConsistentPartitioner(func(string) func(*kgo.Record, int) int {
		return inputPartition
	}))}
}

// inputPartition is the "input" partitioner: the message's Partition, set
// by produce to its record's input partition (never negative), modulo n.
func inputPartition(r *kgo.Record, n int) int { return int(r.Partition) % n }
