package cache_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/plugins/cache"
	"github.com/weir-streams/weir/internal/record"
)

func newCSV(t *testing.T, props map[string]string) (*cache.CSVService, error) {
	t.Helper()
	spec := cache.CSVSpec()
	conf, probs := component.NewConfig(&spec, props)
	if len(probs) > 0 {
		return nil, probs
	}
	svc, err := spec.NewService(context.Background(), conf, component.Env{Name: "lookup_service"})
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { _ = svc.Close(context.Background()) })
	return svc.(*cache.CSVService), nil
}

// TestCSVServiceLoadsLogIslandFile loads LogIsland's own lookup file with
// the keys of its timeseries-parsing.yml job.
func TestCSVServiceLoadsLogIslandFile(t *testing.T) {
	svc, err := newCSV(t, map[string]string{"csv.format": "excel_fr", "csv.file.path": "testdata/logisland/timeseries-lookup.csv",
		"first.line.header": "true", "row.key": "tagname", "encoding.charset": "ISO-8859-1", "cache.size": "100000"})
	if err != nil {
		t.Fatal(err)
	}
	// 24,503 rows hold 16,615 distinct tag names: a later row replaces an earlier one.
	if svc.Len() != 16615 {
		t.Errorf("%d rows loaded, want 16615", svc.Len())
	}
	ctx := context.Background()
	r, ok, err := svc.GetRecord(ctx, "D112.M_FC01.F_CV")
	if err != nil || !ok {
		t.Fatalf("get: %v %v", ok, err)
	}
	for k, want := range map[string]string{"description": "débit charge (F_CV)", "engunits": "g/mn", "lastmodified": "03/06/2014 10:33:04"} {
		if got, _ := r.GetString(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if _, ok, _ := svc.GetRecord(ctx, "nope"); ok {
		t.Error("a missing key was found")
	}
	// BulkPut writes through Put, under the row key.
	nr := record.New("x", "t", 0)
	nr.SetString("tagname", "NEW.TAG")
	c, err := svc.Put(ctx, []*record.Record{nr})
	if err != nil {
		t.Fatal(err)
	}
	if failed, err := c.Wait(ctx); err != nil || len(failed) > 0 {
		t.Fatal(failed, err)
	}
	if _, ok, _ := svc.GetRecord(ctx, "NEW.TAG"); !ok {
		t.Error("the record put is not found")
	}
	if err := svc.RemoveRecord(ctx, "NEW.TAG"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := svc.GetRecord(ctx, "NEW.TAG"); ok {
		t.Error("the record removed is still found")
	}
}

func TestCSVServiceBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for name, tt := range map[string]struct {
		props map[string]string
		want  string
	}{
		"short row":   {map[string]string{"csv.file.path": write("a.csv", "k,v\na,1\nb\n"), "first.line.header": "true", "row.key": "k"}, "line 3"},
		"empty key":   {map[string]string{"csv.file.path": write("b.csv", "a,1\n,2\n"), "csv.header": "k,v", "row.key": "k"}, "line 2"},
		"unknown key": {map[string]string{"csv.file.path": write("c.csv", "k,v\n"), "first.line.header": "true", "row.key": "id"}, `no column "id"`},
		"no file":     {map[string]string{"csv.file.path": filepath.Join(dir, "none.csv"), "first.line.header": "true", "row.key": "k"}, "csv.file.path"},
		"no header":   {map[string]string{"csv.file.path": write("d.csv", "a,1\n"), "row.key": "k"}, "csv.header"},
		"hdfs":        {map[string]string{"csv.file.path": write("e.csv", "k\n"), "csv.file.uri": "hdfs:///x.csv", "first.line.header": "true", "row.key": "k"}, "csv.file.path"},
	} {
		_, err := newCSV(t, tt.props)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", name, err, tt.want)
		}
	}
	// A header given by csv.header, tab-delimited.
	svc, err := newCSV(t, map[string]string{"csv.file.path": write("f.tsv", "a\t1\nb\t2\n"), "csv.header": "k,v", "row.key": "k", "csv.format": "tdf"})
	if err != nil {
		t.Fatal(err)
	}
	if r, ok, _ := svc.GetRecord(context.Background(), "b"); !ok || func() string { s, _ := r.GetString("v"); return s }() != "2" {
		t.Errorf("tdf: %v", r)
	}
}
