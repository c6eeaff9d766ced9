// Package broker is the embedded Kafka-protocol broker: franz-go's kfake in
// the process, on 127.0.0.1, selected by a stream whose broker list is
// "embedded". It is a single-process broker for trying Weir and for tests;
// production uses Kafka or Redpanda.
//
// The broker is a component of its own, owned by app: app builds it, the
// engine resolves "embedded" into its address before it builds a stream,
// and app closes it after the engine has stopped. It lives across dataflow
// restarts, so a restart keeps the topics and committed offsets.
package broker

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/twmb/franz-go/pkg/kfake"
)

// Options configure the embedded broker.
type Options struct {
	// Port to listen on, on 127.0.0.1; 0 picks a free one.
	Port int
	// DataDir keeps topics and committed offsets across restarts; empty
	// keeps them in memory only.
	DataDir    string
	Partitions int32
}

// Embedded is the in-process broker. Building it has no side effect: it
// listens from the first Seeds call, so a job that does not use it opens
// no port. It is safe for concurrent use.
type Embedded struct {
	opts Options
	log  *slog.Logger

	mu      sync.Mutex
	cluster *kfake.Cluster
	closed  bool
}

// New returns the broker, not started.
func New(o Options, log *slog.Logger) *Embedded {
	if log == nil {
		log = slog.Default()
	}
	return &Embedded{opts: o, log: log}
}

// Seeds returns the broker's address as a seed list, starting the broker on
// first use.
func (b *Embedded) Seeds() ([]string, error) { return b.SeedsFor(0) }

// SeedsFor is Seeds for a stream whose broker.topic.default.partitions is
// partitions: if this call starts the broker and Options.Partitions is
// unset, topics that Kafka clients create by auto-creation get that many
// partitions, not kfake's default of 10. The broker is shared, so the
// first stream to use it sets this for all.
func (b *Embedded) SeedsFor(partitions int32) ([]string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, fmt.Errorf("embedded kafka broker is closed")
	}
	if b.cluster == nil {
		opts := []kfake.Opt{kfake.NumBrokers(1), kfake.Ports(b.opts.Port), kfake.AllowAutoTopicCreation()}
		if b.opts.Partitions > 0 {
			opts = append(opts, kfake.DefaultNumPartitions(int(b.opts.Partitions)))
		} else if partitions > 0 {
			opts = append(opts, kfake.DefaultNumPartitions(int(partitions)))
		}
		if b.opts.DataDir != "" {
			opts = append(opts, kfake.DataDir(b.opts.DataDir))
		}
		c, err := kfake.NewCluster(opts...)
		if err != nil {
			return nil, fmt.Errorf("start embedded kafka broker on 127.0.0.1:%d: %w", b.opts.Port, err)
		}
		b.cluster = c
		b.log.Info("embedded Kafka broker started", "address", c.ListenAddrs()[0], "data_dir", b.opts.DataDir)
	}
	return b.cluster.ListenAddrs(), nil
}

// Addr returns the broker's address, "" if it is not running.
func (b *Embedded) Addr() string {
	if b == nil {
		return ""
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cluster == nil {
		return ""
	}
	return b.cluster.ListenAddrs()[0]
}

// Close stops the broker (it waits for its goroutines). It may be called
// without the broker having started, and twice; Seeds fails after it.
func (b *Embedded) Close(context.Context) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	if b.cluster != nil {
		b.cluster.Close()
		b.cluster = nil
	}
	return nil
}
