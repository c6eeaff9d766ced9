package docdb_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/docdb"
	"github.com/weir-streams/weir/internal/plugins/text"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/streamtest"
)

// apacheRegex and apacheFields are the spec's sample parser settings.
const (
	apacheRegex  = `(\S+)\s+(\S+)\s+(\S+)\s+\[([\w:/]+\s[+\-]\d{4})\]\s+"(\S+)\s+(\S+)\s*(\S*)"\s+(\S+)\s+(\S+)`
	apacheFields = "src_ip,identd,user,record_time,http_method,http_query,http_version,http_status,bytes_out"
	inputTopic   = "pipeline_raw"
)

// services is a component.ServiceLookup over a fixed set.
type services map[string]component.Service

func (s services) Service(name string) (component.Service, bool) {
	svc, ok := s[name]
	return svc, ok
}

// testEnv is the environment of one test's components, with its own
// metrics registry.
func testEnv(t testing.TB, name string, svcs services) component.Env {
	t.Helper()
	return component.Env{
		Name:     name,
		Stream:   "indexing_stream",
		Logger:   testLogger(t),
		Metrics:  metrics.New(prometheus.NewRegistry()),
		Services: svcs,
	}
}

// startService builds a DocDBControllerService through its spec, as the
// engine does, and closes it when the test ends.
func startService(t testing.TB, uri, collection string, extra map[string]string) *docdb.Service {
	t.Helper()
	spec := docdb.ServiceSpec()
	raw := map[string]string{
		docdb.KeyURI:        uri,
		docdb.KeyDatabase:   "weir_test",
		docdb.KeyCollection: collection,
	}
	for k, v := range extra {
		raw[k] = v
	}
	conf, probs := component.NewConfig(&spec, raw)
	if err := probs.Err(); err != nil {
		t.Fatalf("service configuration: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	svc, err := spec.NewService(ctx, conf, testEnv(t, "datastore_service", nil))
	if err != nil {
		t.Fatalf("start service: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := svc.Close(ctx); err != nil {
			t.Errorf("close service: %v", err)
		}
	})
	return svc.(*docdb.Service)
}

// newBulkPut builds a BulkPut on the service through its spec.
func newBulkPut(t testing.TB, svc component.Service) component.Processor {
	t.Helper()
	spec := docdb.BulkPutSpec()
	conf, probs := component.NewConfig(&spec, map[string]string{docdb.KeyService: "datastore_service"})
	if err := probs.Err(); err != nil {
		t.Fatalf("BulkPut configuration: %v", err)
	}
	p, err := spec.NewProcessor(conf, testEnv(t, "docdb_writer", services{"datastore_service": svc}))
	if err != nil {
		t.Fatalf("build BulkPut: %v", err)
	}
	return p
}

// newSplitText builds the spec's sample Apache parser.
func newSplitText(t testing.TB) component.Processor {
	t.Helper()
	spec := text.SplitTextSpec()
	conf, probs := component.NewConfig(&spec, map[string]string{
		"record.type": "apache_log", "value.regex": apacheRegex, "value.fields": apacheFields,
	})
	if err := probs.Err(); err != nil {
		t.Fatalf("SplitText configuration: %v", err)
	}
	p, err := spec.NewProcessor(conf, testEnv(t, "apache_parser", nil))
	if err != nil {
		t.Fatalf("build SplitText: %v", err)
	}
	return p
}

// readLog returns the lines of the real access log.
func readLog(t testing.TB) []string {
	t.Helper()
	return streamtest.AccessLogLines(t)
}

// rawRecords makes the records the stream makes from input messages: one
// per line, at consecutive offsets of one partition, with the derived id.
func rawRecords(lines []string, partition int32, firstOffset int64) []*record.Record {
	recs := make([]*record.Record, len(lines))
	now := time.Now().UnixMilli()
	for i, l := range lines {
		o := record.Origin{Topic: inputTopic, Partition: partition, Offset: firstOffset + int64(i)}
		r := record.New(o.ID(), "", now)
		r.Origin = o
		r.SetString(record.FieldValue, l)
		recs[i] = r
	}
	return recs
}

// runBatch runs one batch through the chain as the stream does: every
// processor in turn, records with errors set aside, then the completions
// waited for. It returns the parse failures and the refused records.
func runBatch(ctx context.Context, t testing.TB, chain []component.Processor, recs []*record.Record) (parseFailed, refused []*record.Record, err error) {
	b := &component.Batch{Records: recs, Topic: inputTopic}
	for _, p := range chain {
		if err := p.Process(ctx, b); err != nil {
			return nil, nil, err
		}
		kept := b.Records[:0:0]
		for _, r := range b.Records {
			if r.HasErrors() {
				parseFailed = append(parseFailed, r)
			} else {
				kept = append(kept, r)
			}
		}
		b.Records = kept
	}
	for _, c := range b.Completions() {
		f, err := c.Wait(ctx)
		if err != nil {
			return parseFailed, refused, err
		}
		refused = append(refused, f...)
	}
	return parseFailed, refused, nil
}

// runPartitions runs lines through the chain split over partitions, each
// partition's batches in order and the partitions concurrently, as the
// stream's workers do. It fails the test on any error and returns the
// parse failures and refused records of every batch.
func runPartitions(ctx context.Context, t testing.TB, chain []component.Processor, lines []string, partitions, batchLen int) (parseFailed, refused []*record.Record) {
	t.Helper()
	return runPartitionsFrom(ctx, t, chain, lines, partitions, batchLen, 0)
}

// runPartitionsFrom is runPartitions with every partition starting at
// offset first.
func runPartitionsFrom(ctx context.Context, t testing.TB, chain []component.Processor, lines []string, partitions, batchLen, first int) (parseFailed, refused []*record.Record) {
	t.Helper()
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make(chan error, partitions)
	per := (len(lines) + partitions - 1) / partitions
	for p := 0; p < partitions; p++ {
		lo, hi := p*per, min((p+1)*per, len(lines))
		if lo >= hi {
			continue
		}
		wg.Add(1)
		go func(p int32, part []string) {
			defer wg.Done()
			for off := 0; off < len(part); off += batchLen {
				end := min(off+batchLen, len(part))
				pf, rf, err := runBatch(ctx, t, chain, rawRecords(part[off:end], p, int64(first+off)))
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				parseFailed = append(parseFailed, pf...)
				refused = append(refused, rf...)
				mu.Unlock()
			}
		}(int32(p), lines[lo:hi])
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("run batch: %v", err)
	}
	return parseFailed, refused
}

// expectedIDs returns the ids runPartitions gives n lines.
func expectedIDs(n, partitions int) map[string]bool { return expectedIDsFrom(n, partitions, 0) }

// expectedIDsFrom returns the ids runPartitionsFrom gives n lines.
func expectedIDsFrom(n, partitions, first int) map[string]bool {
	ids := make(map[string]bool, n)
	per := (n + partitions - 1) / partitions
	for p := 0; p < partitions; p++ {
		for i := 0; i < per && p*per+i < n; i++ {
			ids[record.DeriveID(inputTopic, int32(p), int64(first+i), 0)] = true
		}
	}
	return ids
}

// openCollection connects a plain driver client to check what the
// database holds.
func openCollection(t testing.TB, uri, collection string) *mongo.Collection {
	t.Helper()
	return openCollectionIn(t, uri, "weir_test", collection)
}

// openCollectionIn is openCollection in another database.
func openCollectionIn(t testing.TB, uri, db, collection string) *mongo.Collection {
	t.Helper()
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatalf("connect checker client: %v", err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	return client.Database(db).Collection(collection)
}
