package ferretdb

import (
	"context"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// TestStopRestartKeepsDataAndAddress checks what the DocDB tests rely on:
// the server answers, a stopped server refuses connections, and a
// restarted one listens on the same address with the same data.
func TestStopRestartKeepsDataAndAddress(t *testing.T) {
	s := New(t)
	addr := s.Addr()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	client, err := mongo.Connect(options.Client().ApplyURI(s.URI()).SetServerSelectionTimeout(2 * time.Second))
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer func() { _ = client.Disconnect(context.Background()) }()
	coll := client.Database("harness").Collection("c")
	if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: "a"}, {Key: "n", Value: int64(1)}}); err != nil {
		t.Fatalf("insert: %v", err)
	}

	s.Stop()
	if s.Running() {
		t.Fatal("server still running after Stop")
	}
	if err := client.Ping(ctx, nil); err == nil {
		t.Fatal("ping succeeded while the server is stopped")
	}

	if err := s.Restart(); err != nil {
		t.Fatalf("restart: %v", err)
	}
	if s.Addr() != addr {
		t.Fatalf("address changed across restart: %s, then %s", addr, s.Addr())
	}
	var got bson.M
	deadline := time.Now().Add(time.Minute)
	for {
		err = coll.FindOne(ctx, bson.D{{Key: "_id", Value: "a"}}).Decode(&got)
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("find after restart: %v", err)
	}
	if got["n"] != int64(1) {
		t.Fatalf("document after restart = %v, want n=1", got)
	}
}
