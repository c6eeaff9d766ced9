package docdb

import (
	"context"
	"fmt"

	"github.com/weir-streams/weir/internal/component"
)

// BulkPutName is the identifier of the processor.
const BulkPutName = "pkg.processor.datastore.BulkPut"

// KeyService names the datastore service BulkPut writes through.
const KeyService = "datastore.client.service"

// BulkPutSpec declares BulkPut.
func BulkPutSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: BulkPutName,
		Summary: "Writes every record of the batch, as a document whose _id is the record id, through a datastore " +
			"service (" + ServiceName + "). The batch's offsets are committed only once the database acknowledged " +
			"its documents; a document the database refuses for good becomes an error record with its reason. " +
			"Records pass on unchanged.",
		Properties: []component.Property{
			{Key: KeyService, Description: "Name of the datastore controller service that receives the records (a DocDBControllerService, or a SearchIndexClientService, which indexes into its default.index).", Required: true, Example: "docdb", Validator: component.NonEmpty, ServiceRef: Capability},
			{Key: KeyPutCollection, Description: "LogIsland's collection of the documents: the index of a SearchIndexClientService (instead of its default.index). A DocDBControllerService writes into its own collection whatever this says, as LogIsland's MongoDB service does.", Validator: component.NonEmpty},
			{Key: KeyTimeBasedCollection, Description: "Add the day of writing (UTC) to the collection as .yyyy.MM.dd: no, today or yesterday (search index only, as collection).", Default: "no", Validator: component.Enum("no", "today", "yesterday")},
			{Key: KeyDateFormat, Description: "Format of the day suffix of timebased.collection; only LogIsland's default, yyyy.MM.dd, is taken.", Default: "yyyy.MM.dd", Validator: component.Enum("yyyy.MM.dd")},
			{Key: KeyCollectionField, Description: "Record field whose value, when present, is the collection instead of default.collection (search index only); a value that is no valid index name makes the record an error record."},
			{Key: KeyType, Description: "LogIsland's document type (Elasticsearch 6 and older). Accepted and not sent: Elasticsearch 7 and later and OpenSearch have no types, and the datastores Weir writes to need none."},
			{Key: KeyTypeField, Description: "Record field of the document type; accepted and not sent, as default.type."},
		},
	}, newBulkPut)
}

// BulkPutConfig is BulkPut's configuration.
type BulkPutConfig struct {
	Service         string `key:"datastore.client.service"`
	Collection      string `key:"default.collection"`
	TimeBased       string `key:"timebased.collection"`
	CollectionField string `key:"collection.field"`
	// LogIsland's keys with no meaning here: the day format has one value,
	// and the datastores Weir writes to have no document types.
	_ struct{} `key:"date.format,ignored"`
	_ struct{} `key:"default.type,ignored"`
	_ struct{} `key:"type.field,ignored"`
}

// BulkPut's LogIsland keys (LogIsland's datastore BulkPut).
const (
	KeyPutCollection       = "default.collection"
	KeyTimeBasedCollection = "timebased.collection"
	KeyDateFormat          = "date.format"
	KeyCollectionField     = "collection.field"
	KeyType                = "default.type"
	KeyTypeField           = "type.field"
)

// BulkPut hands batches to a Datastore. It holds nothing but the service,
// so it is safe for concurrent use and needs no Close: a pipeline swap
// builds a new BulkPut on the same service, whose writer keeps running.
type BulkPut struct {
	store Datastore
	// to is the service that writes into target, when the service can and
	// one of the collection keys is set.
	to     component.CollectionDatastore
	target component.DatastoreTarget
}

func newBulkPut(conf *BulkPutConfig, env component.Env) (component.Processor, error) {
	store, err := component.ServiceFor[Datastore](env, KeyService, conf.Service, "a datastore")
	if err != nil {
		return nil, err
	}
	p := &BulkPut{store: store, target: component.DatastoreTarget{
		Collection: conf.Collection, TimeBased: conf.TimeBased, Field: conf.CollectionField,
	}}
	if cs, ok := store.(component.CollectionDatastore); ok && (p.target.Collection != "" || p.target.Field != "" || p.target.TimeBased != "no") {
		p.to = cs
	}
	return p, nil
}

// Process queues the batch's documents and registers the Completion that
// holds back the batch's commit until they are acknowledged.
func (p *BulkPut) Process(ctx context.Context, b *component.Batch) error {
	if len(b.Records) == 0 {
		return nil
	}
	var c component.Completion
	var err error
	if p.to != nil {
		c, err = p.to.PutTo(ctx, b.Records, p.target)
	} else {
		c, err = p.store.Put(ctx, b.Records)
	}
	if err != nil {
		return fmt.Errorf("bulk put of %d records: %w", len(b.Records), err)
	}
	b.Await(c)
	return nil
}

var _ component.Processor = (*BulkPut)(nil)
