package docdb_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/plugins/docdb"
	"github.com/weir-streams/weir/internal/record"
	"github.com/weir-streams/weir/internal/testserver/ferretdb"
)

// sampleJob reads the sample job file.
func sampleJob(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "conf", "index-apache-logs-docdb.yml"))
	if err != nil {
		t.Fatalf("read the sample job: %v", err)
	}
	return data
}

// env is a getenv over a map.
func env(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := vars[k]
		return v, ok
	}
}

// TestSampleJobValidates loads conf/index-apache-logs-docdb.yml as it is,
// with DOCDB_URI set, and validates it against the full registry.
func TestSampleJobValidates(t *testing.T) {
	job, err := config.Parse(sampleJob(t), time.Now(), env(map[string]string{"DOCDB_URI": "mongodb://weir:s3cret@127.0.0.1:27017/"}))
	if err != nil {
		t.Fatalf("parse the sample job: %v", err)
	}
	if _, err := config.Check(job, all.NewRegistry()); err != nil {
		t.Fatalf("validate the sample job: %v", err)
	}
}

// TestValidationRefusesBadURIAndWriteConcern: a wrong URI and an unknown
// write concern are refused at validation, each with its key path, and no
// message shows the password.
func TestValidationRefusesBadURIAndWriteConcern(t *testing.T) {
	const password = "pa55%zzword"
	for _, tc := range []struct {
		name, uri, wc, want string
	}{
		{"http scheme", "http://127.0.0.1:27017/", "ACKNOWLEDGED", "docdb.uri"},
		{"no host", "mongodb:///", "ACKNOWLEDGED", "docdb.uri"},
		{"bad password escape", "mongodb://weir:" + password + "@127.0.0.1/", "ACKNOWLEDGED", "docdb.uri"},
		{"bad option", "mongodb://weir:s3cretpw@127.0.0.1/?w=-3&authMechanismProperties=AWS_SESSION_TOKEN:t0ken", "ACKNOWLEDGED", "docdb.uri"},
		{"unknown write concern", "mongodb://127.0.0.1/", "ACKNOWLEDGE", "docdb.write.concern"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := strings.Replace(string(sampleJob(t)), "docdb.write.concern: ACKNOWLEDGED", "docdb.write.concern: "+tc.wc, 1)
			job, err := config.Parse([]byte(data), time.Now(), env(map[string]string{"DOCDB_URI": tc.uri}))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			_, err = config.Check(job, all.NewRegistry())
			probs := config.AsProblems(err)
			if len(probs) != 1 {
				t.Fatalf("validation = %v, want one problem", err)
			}
			p := probs[0]
			if p.Path != "engine.controllerServiceConfigurations[datastore_service].configuration" || p.Key != tc.want || p.Line == 0 {
				t.Fatalf("problem %+v, want path engine.controllerServiceConfigurations[datastore_service].configuration, key %s and a line", p, tc.want)
			}
			if !strings.Contains(p.String(), tc.want) {
				t.Fatalf("message %q does not name %s", p.String(), tc.want)
			}
			for _, secret := range []string{password, "pa55", "zzword", "s3cretpw", "t0ken"} {
				if strings.Contains(p.String(), secret) {
					t.Fatalf("message %q shows the password", p.String())
				}
			}
			t.Log(p.String())
		})
	}
}

// TestWriteConcernMapping checks each write concern name against the
// driver's write concern it maps to.
func TestWriteConcernMapping(t *testing.T) {
	for name, want := range map[string]string{
		docdb.Acknowledged:        "w=1 j=<nil> acknowledged=true",
		docdb.Unacknowledged:      "w=0 j=<nil> acknowledged=false",
		docdb.Fsynced:             "w=1 j=true acknowledged=true",
		docdb.Journaled:           "w=1 j=true acknowledged=true",
		docdb.ReplicaAcknowledged: "w=2 j=<nil> acknowledged=true",
		docdb.Majority:            "w=majority j=<nil> acknowledged=true",
	} {
		wc, err := docdb.WriteConcern(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		j := "<nil>"
		if wc.Journal != nil {
			j = map[bool]string{true: "true", false: "false"}[*wc.Journal]
		}
		got := "w=" + strings.Trim(strings.ReplaceAll(fmtAny(wc.W), " ", ""), "\"") + " j=" + j + " acknowledged=" + map[bool]string{true: "true", false: "false"}[wc.Acknowledged()]
		if got != want {
			t.Errorf("%s maps to %s, want %s", name, got, want)
		}
	}
	if _, err := docdb.WriteConcern("ACKNOWLEDGE"); err == nil {
		t.Error("an unknown write concern was mapped")
	}
}

func fmtAny(v any) string {
	switch x := v.(type) {
	case int:
		return string(rune('0' + x))
	case string:
		return x
	}
	return "?"
}

// TestEachWriteConcernAccepted starts a service with each write concern
// against FerretDB and writes through it.
//
// FerretDB limit worked around: with UNACKNOWLEDGED (w:0) FerretDB sends a
// reply it should not, which corrupts the driver's connection, so that
// write concern is only started and checked by its mapping
// (TestWriteConcernMapping), not written with. FerretDB ignores w and j, so
// REPLICA_ACKNOWLEDGED and MAJORITY succeed on its single server, where
// MongoDB would need a replica set.
func TestEachWriteConcernAccepted(t *testing.T) {
	srv := ferretdb.New(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for _, wc := range docdb.WriteConcerns {
		coll := "wc_" + strings.ToLower(wc)
		svc := startService(t, srv.URI(), coll, map[string]string{docdb.KeyWriteConcern: wc, docdb.KeyFlush: "50"})
		if wc == docdb.Unacknowledged {
			continue
		}
		b := &component.Batch{Records: rawRecords([]string{"one", "two", "three"}, 0, 0)}
		if err := newBulkPut(t, svc).Process(ctx, b); err != nil {
			t.Fatalf("%s: process: %v", wc, err)
		}
		if failed, err := b.Completions()[0].Wait(ctx); err != nil || len(failed) != 0 {
			t.Fatalf("%s: wait: %v, %d refused", wc, err, len(failed))
		}
		if n, err := openCollection(t, srv.URI(), coll).CountDocuments(ctx, bson.D{}); err != nil || n != 3 {
			t.Fatalf("%s: %d documents (%v), want 3", wc, n, err)
		}
	}
}

// TestRefusedDocumentsBecomeErrorRecords: in a batch, a document the
// database refuses and one over the 16 MiB limit come back from Wait as
// copies carrying datastore_write_error and the reason; the rest of the
// batch is written. The same holds for the insert mode, where a document
// whose id exists is counted as a duplicate and skipped, not refused.
func TestRefusedDocumentsBecomeErrorRecords(t *testing.T) {
	srv := ferretdb.New(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for _, mode := range []string{docdb.ModeUpsert, docdb.ModeInsert} {
		coll := "refused_" + mode
		svc := startService(t, srv.URI(), coll, map[string]string{docdb.KeyFlush: "50", docdb.KeyBulkMode: mode})
		bp := newBulkPut(t, svc)
		recs := rawRecords([]string{"a", "b", "c", "d", "e"}, 0, 0)
		recs[1].Set("$bad", record.StringValue("a field name MongoDB refuses at the top of a document"))
		recs[3].Set("huge", record.StringValue(strings.Repeat("x", docdb.MaxDocumentSize)))
		b := &component.Batch{Records: recs}
		if err := bp.Process(ctx, b); err != nil {
			t.Fatalf("%s: process: %v", mode, err)
		}
		failed, err := b.Completions()[0].Wait(ctx)
		if err != nil {
			t.Fatalf("%s: wait: %v", mode, err)
		}
		if len(failed) != 2 || failed[0].ID != recs[1].ID || failed[1].ID != recs[3].ID {
			t.Fatalf("%s: refused %v, want records 1 and 3", mode, failed)
		}
		for _, f := range failed {
			errs := f.Errors()
			if len(errs) != 1 || !strings.HasPrefix(errs[0], record.ErrDatastoreWrite+": ") {
				t.Fatalf("%s: errors of refused record: %v", mode, errs)
			}
			t.Logf("%s: %s", mode, errs[0])
		}
		if recs[1].HasErrors() {
			t.Fatalf("%s: Wait changed the original record instead of a copy", mode)
		}
		counts := ferretdb.IDCounts(ctx, t, openCollection(t, srv.URI(), coll))
		if len(counts) != 3 || counts[recs[0].ID] != 1 || counts[recs[2].ID] != 1 || counts[recs[4].ID] != 1 {
			t.Fatalf("%s: stored %v, want records 0, 2 and 4", mode, counts)
		}

		// The batch again, as after a crash before the commit.
		again := &component.Batch{Records: rawRecords([]string{"a", "b", "c"}, 0, 0)}
		if err := bp.Process(ctx, again); err != nil {
			t.Fatalf("%s: process replay: %v", mode, err)
		}
		if failed, err := again.Completions()[0].Wait(ctx); err != nil || len(failed) != 0 {
			t.Fatalf("%s: replay: %v, %d refused", mode, err, len(failed))
		}
		st := svc.Stats()
		wantDup := 0.0
		if mode == docdb.ModeInsert {
			wantDup = 2 // a and c exist; b was refused before, so it is new
		}
		if st.Duplicates != wantDup {
			t.Fatalf("%s: %v duplicates, want %v", mode, st.Duplicates, wantDup)
		}
		if n := len(ferretdb.IDCounts(ctx, t, openCollection(t, srv.URI(), coll))); n != 4 {
			t.Fatalf("%s: %d documents after the replay, want 4", mode, n)
		}
	}
}

// TestSharedServiceSurvivesPipelineSwap: two BulkPut processors share one
// service concurrently, then the chain is rebuilt (a pipeline swap: new
// processors, same service) and writing goes on.
func TestSharedServiceSurvivesPipelineSwap(t *testing.T) {
	srv := ferretdb.New(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	svc := startService(t, srv.URI(), "shared", map[string]string{docdb.KeyFlush: "50", docdb.KeyBatchSize: "30"})
	lines := readLog(t)[:600]
	old := []component.Processor{newSplitText(t), newBulkPut(t, svc)}
	other := []component.Processor{newSplitText(t), newBulkPut(t, svc)}
	done := make(chan error, 1)
	go func() {
		_, rf, err := runBatch(ctx, t, other, rawRecords(lines[:200], 1, 0))
		if err == nil && len(rf) != 0 {
			err = context.Canceled
		}
		done <- err
	}()
	if _, rf, err := runBatch(ctx, t, old, rawRecords(lines[200:400], 0, 0)); err != nil || len(rf) != 0 {
		t.Fatalf("first chain: %v, %d refused", err, len(rf))
	}
	if err := <-done; err != nil {
		t.Fatalf("second processor: %v", err)
	}
	swapped := []component.Processor{newSplitText(t), newBulkPut(t, svc)}
	if _, rf, err := runBatch(ctx, t, swapped, rawRecords(lines[400:], 0, 200)); err != nil || len(rf) != 0 {
		t.Fatalf("swapped chain: %v, %d refused", err, len(rf))
	}
	if n := len(ferretdb.IDCounts(ctx, t, openCollection(t, srv.URI(), "shared"))); n != 600 {
		t.Fatalf("%d documents, want 600", n)
	}
}
