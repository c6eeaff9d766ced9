package config_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/weir-streams/weir/internal/config"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/streamtest"
)

func TestLogIslandShippedJobsSurvey(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(streamtest.Root(), "testdata", "logisland", "*", "*.y*ml"))
	more, _ := filepath.Glob(filepath.Join(streamtest.Root(), "testdata", "logisland", "tests", "*", "*.y*ml"))
	files = append(files, more...)
	sort.Strings(files)
	env := map[string]string{"KAFKA_BROKERS": "127.0.0.1:9092", "ZK_QUORUM": "", "ES_HOSTS": "127.0.0.1:9200", "ES_CLUSTER_NAME": "es", "ES_CLUSTER": "es", "REDIS_CONNECTION": "127.0.0.1:6379", "SOLR_CONNECTION": "http://127.0.0.1:8983/solr", "MQTT_BROKER_URL": "tcp://127.0.0.1:1883", "MONGO_URI": "mongodb://127.0.0.1:27017"}
	getenv := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	ok := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.ReplaceAll(string(data), "com.hurence.logisland", "pkg")
		s = strings.ReplaceAll(s, "pkg.serializer.KryoSerializer", "pkg.serializer.JsonSerializer")
		_, err = config.ParseChecked([]byte(s), config.StartTime(), getenv, all.NewRegistry())
		if err == nil {
			ok++
			t.Logf("OK %s", f)
			continue
		}
		t.Logf("FAIL %s\n%v", f, err)
	}
	t.Logf("%d of %d valid", ok, len(files))
}
