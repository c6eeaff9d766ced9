package component

import (
	"context"

	"github.com/weir-streams/weir/internal/record"
)

// DatastoreCapability is what services that store whole records provide
// (Spec.Provides), and what BulkPut's datastore.client.service asks for:
// the document-database service and the search-index service both do.
const DatastoreCapability = "datastore"

// Datastore is what a service providing DatastoreCapability implements, so
// that BulkPut can write through any of them without knowing which.
type Datastore interface {
	Service
	// Put queues the documents of recs for writing and returns the
	// Completion that is done when the store acknowledged all of them or
	// refused some for good. It converts the records before it returns and
	// keeps recs only to copy the refused ones in Wait, which the stream
	// calls after the chain is done with the batch. It blocks while the
	// writer's queue is full (back-pressure) and returns ctx's error if ctx
	// ends first.
	Put(ctx context.Context, recs []*record.Record) (Completion, error)
}

// DatastoreTarget is where BulkPut's LogIsland keys send a batch's
// documents: the collection (an index of a search-index service), a day
// suffix, and a record field that overrides the collection.
type DatastoreTarget struct {
	// Collection is default.collection; empty means the service's own.
	Collection string
	// TimeBased is timebased.collection: no, today or yesterday.
	TimeBased string
	// Field is collection.field: a record field whose value, when
	// present, is the collection instead.
	Field string
}

// CollectionDatastore is a Datastore that can write into the collection
// BulkPut names (the search-index service: one index per collection). A
// Datastore without it writes into its own collection, as LogIsland's
// MongoDB service does whatever collection BulkPut names.
type CollectionDatastore interface {
	Datastore
	// PutTo is Put into target.
	PutTo(ctx context.Context, recs []*record.Record, target DatastoreTarget) (Completion, error)
}
