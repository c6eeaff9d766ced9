package cache

import (
	"testing"

	"github.com/weir-streams/weir/internal/component/configtest"
)

// TestLRUConfig decodes the LRU service's configurations from testdata.
func TestLRUConfig(t *testing.T) {
	configtest.Run(t, LRUSpec(), "testdata/config.yaml", []configtest.Case[LRUConfig]{
		{ID: "lru_default", Want: &LRUConfig{Size: DefaultSize}},
		{ID: "lru_sized", Want: &LRUConfig{Size: 500}},
		{ID: "lru_too_big", WantErr: `property "cache.size"`},
	})
}

// TestCSVConfig decodes the CSV service's configurations from testdata.
func TestCSVConfig(t *testing.T) {
	configtest.Run(t, CSVSpec(), "testdata/config.yaml", []configtest.Case[CSVConfig]{
		{ID: "csv_header_given", Want: &CSVConfig{Format: "excel_fr", Header: []string{"tagname", "unit", "label"},
			Path: "conf/timeseries-lookup.csv", RowKey: "tagname", Size: DefaultSize, Charset: "ISO-8859-1"}},
		{ID: "csv_first_line", Want: &CSVConfig{Format: "default", FirstLineHeader: true, Path: "lookup.csv", RowKey: "id",
			Size: DefaultSize, Charset: "UTF-8"}},
		{ID: "csv_no_columns", WantErr: `give the columns with "csv.header"`},
		{ID: "csv_uri", WantErr: "read from the local file system only"},
	})
}
