package docdb

import (
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/weir-streams/weir/internal/record"
)

// Document encodes a record as the BSON document BulkPut writes: _id is the
// record id, then every field in the record's order with its own type
// (strings stay strings, integers are 64-bit integers, floats doubles,
// booleans, bytes binary, arrays and maps nested). A record id is derived
// from the input's coordinates, so a replayed record has the same _id and
// an upsert rewrites the same document.
//
// It fails for a record without an id, one that BSON cannot encode, and one
// over MongoDB's 16 MiB document limit: such a record is refused for good.
func Document(r *record.Record) (bson.Raw, error) {
	if r.ID == "" {
		return nil, fmt.Errorf("record has no id to use as _id")
	}
	fields := r.Fields()
	d := make(bson.D, 0, len(fields)+1)
	d = append(d, bson.E{Key: "_id", Value: r.ID})
	for _, f := range fields {
		if f.Name == "_id" {
			// The record id is the document id; a field of that name
			// would make a document with two _id keys.
			continue
		}
		d = append(d, bson.E{Key: f.Name, Value: f.Value.Interface()})
	}
	raw, err := bson.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("encode record %s as BSON: %w", r.ID, err)
	}
	if len(raw) > MaxDocumentSize {
		return nil, fmt.Errorf("document of record %s is %d bytes, over MongoDB's limit of %d", r.ID, len(raw), MaxDocumentSize)
	}
	return raw, nil
}
