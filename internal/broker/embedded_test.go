package broker_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/weir-streams/weir/internal/broker"
)

// TestAutoCreatedTopicsTakeStreamPartitions: a topic a Kafka client creates
// by producing to it gets the partitions of the stream that started the
// broker, not kfake's default of 10.
func TestAutoCreatedTopicsTakeStreamPartitions(t *testing.T) {
	b := broker.New(broker.Options{}, slog.New(slog.DiscardHandler))
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	seeds, err := b.SeedsFor(3)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(seeds...), kgo.AllowAutoTopicCreation())
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := cl.ProduceSync(ctx, &kgo.Record{Topic: "auto_created", Value: []byte("x")}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	md, err := kadm.NewClient(cl).ListTopics(ctx, "auto_created")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(md["auto_created"].Partitions); n != 3 {
		t.Fatalf("auto-created topic has %d partitions, want 3", n)
	}
}
