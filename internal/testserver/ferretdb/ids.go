package ferretdb

import (
	"context"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// IDCounts returns how many documents of coll hold each _id, for tests that
// check every record was written exactly once.
func IDCounts(ctx context.Context, tb testing.TB, coll *mongo.Collection) map[string]int {
	tb.Helper()
	// All ids in the first reply, so no getMore: after a restart FerretDB
	// v1.24 once answered a getMore with CursorNotFound, apparently
	// because the connection that opened the cursor was closed by the
	// driver's pool (cleared after the outage) and the cursor with it.
	cur, err := coll.Find(ctx, bson.D{}, options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}}).SetBatchSize(1_000_000))
	if err != nil {
		tb.Fatalf("find: %v", err)
	}
	defer cur.Close(ctx)
	counts := map[string]int{}
	for cur.Next(ctx) {
		id, ok := cur.Current.Lookup("_id").StringValueOK()
		if !ok {
			tb.Fatalf("document with a non-string _id: %v", cur.Current)
		}
		counts[id]++
	}
	if err := cur.Err(); err != nil {
		tb.Fatalf("read documents: %v", err)
	}
	return counts
}
