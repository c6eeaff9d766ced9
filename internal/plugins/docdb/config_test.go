package docdb

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo/writeconcern"

	"github.com/weir-streams/weir/internal/component/configtest"
)

// TestServiceConfig decodes the DocDBControllerService's configurations
// from testdata, with the write concern and hosts Validate derives.
func TestServiceConfig(t *testing.T) {
	yes := true
	for _, tt := range []struct {
		id      string
		want    *ServiceConfig
		wantErr string
	}{
		{id: "service_defaults", want: &ServiceConfig{URI: "mongodb://127.0.0.1:27017/", Database: "weir", Collection: "events",
			WriteConcern: Acknowledged, Flush: 2 * time.Second, BatchSize: 1000, BulkMode: ModeUpsert, WriteTimeout: time.Minute,
			wc: &writeconcern.WriteConcern{W: 1}, hosts: []string{"127.0.0.1:27017"}}},
		{id: "service_full", want: &ServiceConfig{URI: "mongodb://weir:s3cret@db1:27017,db2:27018/?replicaSet=rs0", Database: "weir",
			Collection: "apache_logs", WriteConcern: Majority, Flush: 500 * time.Millisecond, BatchSize: 250, BulkMode: ModeInsert,
			WriteTimeout: 15 * time.Second, wc: &writeconcern.WriteConcern{W: "majority"}, hosts: []string{"db1:27017", "db2:27018"}}},
		{id: "service_journaled", want: &ServiceConfig{URI: "mongodb+srv://cluster0.example.net/", Database: "weir", Collection: "events",
			WriteConcern: Journaled, Flush: 2 * time.Second, BatchSize: 1000, BulkMode: ModeUpsert, WriteTimeout: time.Minute,
			wc: &writeconcern.WriteConcern{W: 1, Journal: &yes}, hosts: []string{"cluster0.example.net"}}},
		{id: "service_bad_uri", wantErr: `property "docdb.uri": URI scheme must be mongodb:// or mongodb+srv://`},
		{id: "service_system_collection", wantErr: `property "docdb.collection.name": collection name "system.users" is in the reserved system. namespace`},
	} {
		t.Run(tt.id, func(t *testing.T) {
			got, err := configtest.Decode[ServiceConfig](ServiceSpec(), "testdata/config.yaml", tt.id)
			check(t, got, err, tt.want, tt.wantErr)
		})
	}
}

// TestBulkPutConfig decodes BulkPut's configurations from testdata.
func TestBulkPutConfig(t *testing.T) {
	for _, tt := range []struct {
		id      string
		want    *BulkPutConfig
		wantErr string
	}{
		{id: "bulkput_defaults", want: &BulkPutConfig{Service: "datastore_service", TimeBased: "no"}},
		{id: "bulkput_logisland", want: &BulkPutConfig{Service: "datastore_service", Collection: "logisland", TimeBased: "yesterday",
			CollectionField: "search_index"}},
		{id: "bulkput_date_format", wantErr: `property "date.format"`},
	} {
		t.Run(tt.id, func(t *testing.T) {
			got, err := configtest.Decode[BulkPutConfig](BulkPutSpec(), "testdata/config.yaml", tt.id)
			check(t, got, err, tt.want, tt.wantErr)
		})
	}
}

// check compares a decoded configuration, or the error decoding gave,
// with what the case wants.
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
