package docdb_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/docdb"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/testserver/ferretdb"
)

// waitFor polls cond until it holds or the test's deadline is near; it
// asserts an outcome, never a duration.
func waitFor(ctx context.Context, t *testing.T, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("gave up waiting for %s: %v", what, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// TestDatabaseDownMidRun stops the database while the real log is being
// written and starts it again: every Completion waits instead of failing
// (back-pressure), and once the database is back every line is stored
// exactly once. A batch is then replayed in upsert mode, as after a crash
// before the commit: the upserts rewrite the same documents.
//
// FerretDB limits worked around: the run uses insert mode, because SQLite
// upserts scan the collection for each _id and 4,000 of them would take
// minutes (the bulk in flight at the stop is retried after the restart, and
// its documents already written count as duplicates and are skipped). The
// upsert replay is 40 documents, below the ~100 matched documents at which
// one FerretDB update command hangs the database. MongoDB has neither
// limit.
func TestDatabaseDownMidRun(t *testing.T) {
	srv := ferretdb.New(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	svc := startService(t, srv.URI(), "down_mid_run", map[string]string{
		docdb.KeyBatchSize: "100", docdb.KeyFlush: "100", docdb.KeyBulkMode: docdb.ModeInsert,
	})
	chain := []component.Processor{newSplitText(t), newBulkPut(t, svc)}
	coll := openCollection(t, srv.URI(), "down_mid_run")

	lines := readLog(t)[:4000]
	first, second := lines[:2000], lines[2000:]

	// The first half lands while the database is up.
	if pf, rf := runPartitions(ctx, t, chain, first, 4, 100); len(pf) != 0 || len(rf) != 0 {
		t.Fatalf("first half: %d parse failures and %d refused documents, want none", len(pf), len(rf))
	}
	srv.Stop()
	t.Log("database stopped")

	// The second half is processed while it is down, in later offsets of
	// the same partitions.
	type result struct {
		parseFailed, refused []*record.Record
	}
	results := make(chan result, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		pf, rf := runPartitionsFrom(ctx, t, chain, second, 4, 100, len(first)/4)
		results <- result{pf, rf}
	}()
	// No batch can complete while the database is down: once the writer
	// has met the outage and retried, the run must still be waiting.
	waitFor(ctx, t, "a retry while the database is down", func() bool { return retriesOf(t, svc) > 0 })
	select {
	case <-results:
		t.Fatal("the run completed while the database was down")
	default:
	}
	if err := srv.Restart(); err != nil {
		t.Fatalf("restart the database: %v", err)
	}
	t.Log("database restarted")
	wg.Wait()
	res := <-results
	if len(res.parseFailed) != 0 || len(res.refused) != 0 {
		t.Fatalf("second half: %d parse failures and %d refused documents, want none", len(res.parseFailed), len(res.refused))
	}

	// A redelivered batch (the stream crashed before committing it),
	// through a second service in the default upsert mode.
	upsert := startService(t, srv.URI(), "down_mid_run", map[string]string{docdb.KeyFlush: "100"})
	replay := []component.Processor{newSplitText(t), newBulkPut(t, upsert)}
	if _, refused, err := runBatch(ctx, t, replay, rawRecords(lines[:40], 0, 0)); err != nil || len(refused) != 0 {
		t.Fatalf("replay: err %v, %d refused", err, len(refused))
	}

	counts := ferretdb.IDCounts(ctx, t, coll)
	want := expectedIDs(len(first), 4)
	for id := range expectedIDsFrom(len(second), 4, len(first)/4) {
		want[id] = true
	}
	if len(counts) != len(want) {
		t.Fatalf("collection holds %d distinct ids, want %d", len(counts), len(want))
	}
	for id := range want {
		if counts[id] != 1 {
			t.Fatalf("id %s stored %d times, want once", id, counts[id])
		}
	}
}

// retriesOf reads the service's retry counter.
func retriesOf(t *testing.T, svc *docdb.Service) float64 {
	t.Helper()
	return svc.Stats().Retries
}

// TestCloseWhileDownReportsUnconfirmed closes the service while the
// database is down: the pending Completion reports an error (the batch is
// not committed and will be redelivered) instead of blocking or claiming
// success.
func TestCloseWhileDownReportsUnconfirmed(t *testing.T) {
	srv := ferretdb.New(t)
	srv.Stop()
	spec := docdb.ServiceSpec()
	conf, probs := component.NewConfig(&spec, map[string]string{
		docdb.KeyURI: srv.URI() + "?serverSelectionTimeoutMS=500", docdb.KeyDatabase: "weir_test",
		docdb.KeyCollection: "closed", docdb.KeyFlush: "50",
	})
	if err := probs.Err(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	svc, err := spec.NewService(ctx, conf, testEnv(t, "datastore_service", nil))
	if err != nil {
		t.Fatalf("a service must start while its database is down: %v", err)
	}
	bp := newBulkPut(t, svc)
	b := &component.Batch{Records: rawRecords([]string{"a", "b"}, 0, 0)}
	if err := bp.Process(ctx, b); err != nil {
		t.Fatalf("process: %v", err)
	}
	waitFor(ctx, t, "a failed attempt", func() bool { return svc.(*docdb.Service).Stats().Retries > 0 })

	closeCtx, closeCancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer closeCancel()
	if err := svc.Close(closeCtx); err != nil {
		t.Fatalf("close: %v", err)
	}
	failed, err := b.Completions()[0].Wait(ctx)
	if err == nil {
		t.Fatalf("Wait after close without the database = %d failed, no error; want an error", len(failed))
	}
	if !strings.Contains(err.Error(), "closed") {
		t.Fatalf("Wait error = %v, want one that says the service closed", err)
	}
	if err := bp.Process(ctx, &component.Batch{Records: rawRecords([]string{"c"}, 0, 2)}); err == nil {
		t.Fatal("Process after the service closed succeeded")
	}
}

// TestWaitHonoursContext: a Wait whose context ends returns the context's
// error, so a stream shutting down is not held by a down database.
func TestWaitHonoursContext(t *testing.T) {
	srv := ferretdb.New(t)
	srv.Stop()
	svc := startService(t, srv.URI(), "ctx", map[string]string{docdb.KeyFlush: "50"})
	b := &component.Batch{Records: rawRecords([]string{"a"}, 0, 0)}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := newBulkPut(t, svc).Process(ctx, b); err != nil {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithCancel(ctx)
	wcancel()
	if _, err := b.Completions()[0].Wait(wctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait with a cancelled context = %v, want context.Canceled", err)
	}
	// Let the close at cleanup give up quickly on the down database.
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
}
