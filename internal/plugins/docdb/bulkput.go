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
	return component.Spec{
		Name: BulkPutName,
		Kind: component.KindProcessor,
		Summary: "Writes every record of the batch, as a document whose _id is the record id, through a datastore " +
			"service (" + ServiceName + "). The batch's offsets are committed only once the database acknowledged " +
			"its documents; a document the database refuses for good becomes an error record with its reason. " +
			"Records pass on unchanged.",
		Properties: []component.Property{
			{Key: KeyService, Description: "Name of the datastore controller service that receives the records (a DocDBControllerService, or a SearchIndexClientService, which indexes into its default.index).", Required: true, Example: "docdb", Validator: component.NonEmpty, ServiceRef: Capability},
		},
		NewProcessor: newBulkPut,
	}
}

// BulkPut hands batches to a Datastore. It holds nothing but the service,
// so it is safe for concurrent use and needs no Close: a pipeline swap
// builds a new BulkPut on the same service, whose writer keeps running.
type BulkPut struct {
	store Datastore
}

func newBulkPut(conf component.Config, env component.Env) (component.Processor, error) {
	store, err := component.ServiceFor[Datastore](env, conf, KeyService, "a datastore")
	if err != nil {
		return nil, err
	}
	return &BulkPut{store: store}, nil
}

// Process queues the batch's documents and registers the Completion that
// holds back the batch's commit until they are acknowledged.
func (p *BulkPut) Process(ctx context.Context, b *component.Batch) error {
	if len(b.Records) == 0 {
		return nil
	}
	c, err := p.store.Put(ctx, b.Records)
	if err != nil {
		return fmt.Errorf("bulk put of %d records: %w", len(b.Records), err)
	}
	b.Await(c)
	return nil
}

var _ component.Processor = (*BulkPut)(nil)
