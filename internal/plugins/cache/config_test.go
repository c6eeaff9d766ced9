package cache

import (
	"reflect"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/component/configtest"
)

// TestLRUConfig decodes the LRU service's configurations from testdata.
func TestLRUConfig(t *testing.T) {
	for _, tt := range []struct {
		id      string
		want    *LRUConfig
		wantErr string
	}{
		{id: "lru_default", want: &LRUConfig{Size: DefaultSize}},
		{id: "lru_sized", want: &LRUConfig{Size: 500}},
		{id: "lru_too_big", wantErr: `property "cache.size"`},
	} {
		t.Run(tt.id, func(t *testing.T) {
			got, err := configtest.Decode[LRUConfig](LRUSpec(), "testdata/config.yaml", tt.id)
			check(t, got, err, tt.want, tt.wantErr)
		})
	}
}

// TestCSVConfig decodes the CSV service's configurations from testdata.
func TestCSVConfig(t *testing.T) {
	for _, tt := range []struct {
		id      string
		want    *CSVConfig
		wantErr string
	}{
		{id: "csv_header_given", want: &CSVConfig{Format: "excel_fr", Header: []string{"tagname", "unit", "label"},
			Path: "conf/timeseries-lookup.csv", RowKey: "tagname", Size: DefaultSize, Charset: "ISO-8859-1"}},
		{id: "csv_first_line", want: &CSVConfig{Format: "default", FirstLineHeader: true, Path: "lookup.csv", RowKey: "id",
			Size: DefaultSize, Charset: "UTF-8"}},
		{id: "csv_no_columns", wantErr: `give the columns with "csv.header"`},
		{id: "csv_uri", wantErr: "read from the local file system only"},
	} {
		t.Run(tt.id, func(t *testing.T) {
			got, err := configtest.Decode[CSVConfig](CSVSpec(), "testdata/config.yaml", tt.id)
			check(t, got, err, tt.want, tt.wantErr)
		})
	}
}

func check[C any](t *testing.T, got *C, err error, want *C, wantErr string) {
	t.Helper()
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("error %v, want one containing %q", err, wantErr)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decoded\n%+v\nwant\n%+v", got, want)
	}
}
