package searchindex

import (
	"context"
	"fmt"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// ProcessorName is the identifier of the processor.
const ProcessorName = "pkg.processor.searchindex.BulkAddSearchIndex"

// Configuration keys of the processor.
const (
	KeyService    = "search.client.service"
	KeyIndex      = "default.index"
	KeyTimeBased  = "timebased.index"
	KeyIndexField = "index.field"
)

// ProcessorSpec declares BulkAddSearchIndex.
func ProcessorSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: ProcessorName,
		Summary: "Indexes every record of the batch through a search-index client service (" + ServiceName + "), as a " +
			"document whose _id is the record id and whose @timestamp is the record_time. The batch's offsets are " +
			"committed only once every document has an outcome; a document the index refuses for good becomes an " +
			"error record with the index's reason. Records pass on unchanged.",
		Properties: []component.Property{
			{Key: KeyService, Description: "Name of the search-index client service that sends the documents.", Required: true, Example: "search_client", Validator: component.NonEmpty, ServiceRef: component.DatastoreCapability},
			{Key: KeyIndex, Description: "Index of the documents.", Required: true, Example: "weblogs", Validator: IndexNameValidator},
			{Key: KeyTimeBased, Description: "Add the day of indexing (UTC) to the index name as .yyyy.MM.dd: no, today, or yesterday.", Default: TimeBasedNo, Validator: component.Enum(TimeBasedNo, TimeBasedToday, TimeBasedYesterday)},
			{Key: KeyIndexField, Description: "Record field whose value, when present, is the index instead of default.index (the time-based suffix is still added); a value that is not a valid index name makes the record an error record."},
		},
	}, newProcessor)
}

// ProcessorConfig is BulkAddSearchIndex's configuration.
type ProcessorConfig struct {
	Service    string `key:"search.client.service"`
	Index      string `key:"default.index"`
	TimeBased  string `key:"timebased.index"`
	IndexField string `key:"index.field"`
}

// BulkAddSearchIndex hands batches to a Service. It holds nothing but the
// service and its target, so it is safe for concurrent use and needs no
// Close: a pipeline swap builds a new one on the same service.
type BulkAddSearchIndex struct {
	svc    Indexer
	target Target
}

// Indexer is what BulkAddSearchIndex needs of its service: *Service, or a
// stand-in that answers without a network (weir test's canned search
// index, internal/jobtest).
type Indexer interface {
	component.Service
	// Index queues the documents of recs for target; see Service.Index.
	Index(ctx context.Context, recs []*record.Record, target Target) (component.Completion, error)
}

func newProcessor(conf *ProcessorConfig, env component.Env) (component.Processor, error) {
	s, err := component.ServiceFor[Indexer](env, KeyService, conf.Service, "a "+ServiceName)
	if err != nil {
		return nil, err
	}
	return &BulkAddSearchIndex{svc: s, target: Target{Index: conf.Index, TimeBased: conf.TimeBased, Field: conf.IndexField}}, nil
}

// Process queues the batch's documents and registers the Completion that
// holds back the batch's commit until each has an outcome.
func (p *BulkAddSearchIndex) Process(ctx context.Context, b *component.Batch) error {
	if len(b.Records) == 0 {
		return nil
	}
	c, err := p.svc.Index(ctx, b.Records, p.target)
	if err != nil {
		return fmt.Errorf("index %d records: %w", len(b.Records), err)
	}
	b.Await(c)
	return nil
}

var _ component.Processor = (*BulkAddSearchIndex)(nil)
