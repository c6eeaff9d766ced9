package engine_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/weir-streams/weir/internal/dataflow"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/metrics"
	"github.com/weir-streams/weir/internal/plugins/all"
	"github.com/weir-streams/weir/internal/plugins/docdb"
	"github.com/weir-streams/weir/internal/stream"
	"github.com/weir-streams/weir/internal/streamtest"
)

// TestNoSecretInLogsStatusOrErrors runs dataflows configured with known
// secrets (a SASL password, a MongoDB URI with a password) through starts
// that succeed and fail, with debug logging, and looks for the secrets in
// every log line, the status JSON, the snapshot and every returned error.
func TestNoSecretInLogsStatusOrErrors(t *testing.T) {
	const kafkaPW, mongoPW = "kafka-Secret-1234", "mongo-Secret-5678"
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.AllowAutoTopicCreation(), kfake.EnableSASL(),
		kfake.Superuser("SCRAM-SHA-256", "weir", kafkaPW))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	addr := c.ListenAddrs()[0]

	var logs streamtest.SyncBuffer
	e := engine.New(engine.Options{
		Settings: engine.Settings{AppName: "secrets", Workers: 2, BatchInterval: 20 * time.Millisecond},
		Registry: all.NewRegistry(),
		Logger:   slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Metrics:  metrics.New(prometheus.NewRegistry()),
	})
	t.Cleanup(func() { _ = e.Stop(context.Background()) })

	// Port 1 on 127.0.0.1 refuses connections: the MongoDB service starts,
	// logs that the database is not reachable, and quotes its error.
	mongo := dataflow.Component{Name: "db", Component: docdb.ServiceName, Config: streamtest.Props(
		docdb.KeyURI, "mongodb://weir:"+mongoPW+"@127.0.0.1:1/?serverSelectionTimeoutMS=300",
		docdb.KeyDatabase, "weir", docdb.KeyCollection, "events")}
	sasl := func(pw string) []dataflow.Property {
		return streamtest.Props(stream.KeySecurityProtocol, stream.ProtocolSASLPlaintext,
			stream.KeySASLMechanism, stream.MechanismSCRAM256, stream.KeySASLUsername, "weir", stream.KeySASLPassword, pw)
	}
	var errs []string
	apply := func(df *dataflow.DataFlow, wantErr bool) {
		t.Helper()
		df.LastModified = time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		err := e.Apply(ctx, df)
		if (err != nil) != wantErr {
			t.Fatalf("apply: %v, want error %v", err, wantErr)
		}
		if err != nil {
			errs = append(errs, err.Error())
		}
	}
	// Runs: wrong Kafka password (the right one is a secret too), then
	// the right one, then an invalid MongoDB URI holding the password.
	apply(&dataflow.DataFlow{Services: []dataflow.Component{mongo},
		Streams: []dataflow.Stream{streamtest.Stream("s1", addr, "in1", "out1", "err1", sasl(kafkaPW+"-wrong")...)}}, true)
	apply(&dataflow.DataFlow{Services: []dataflow.Component{mongo},
		Streams: []dataflow.Stream{streamtest.Stream("s2", addr, "in2", "out2", "err2", sasl(kafkaPW)...)}}, false)
	bad := mongo
	bad.Config = streamtest.Props(docdb.KeyURI, "mongodb://weir:"+mongoPW+"@127.0.0.1:notaport/",
		docdb.KeyDatabase, "weir", docdb.KeyCollection, "events")
	apply(&dataflow.DataFlow{Services: []dataflow.Component{bad},
		Streams: []dataflow.Stream{streamtest.Stream("s3", addr, "in3", "out3", "err3", sasl(kafkaPW)...)}}, true)

	st, err := json.Marshal(e.Status())
	if err != nil {
		t.Fatal(err)
	}
	outputs := map[string]string{"status": string(st), "errors": strings.Join(errs, "\n"), "logs": logs.String()}
	if len(errs) != 2 || !strings.Contains(logs.String(), "MongoDB not reachable") {
		t.Fatalf("the runs did not reach the paths that quote secrets: errors %q, logs:\n%s", errs, logs.String())
	}
	if !strings.Contains(string(st), `"******"`) {
		t.Errorf("status shows no redacted value: %s", st)
	}
	for where, text := range outputs {
		for _, secret := range []string{kafkaPW, mongoPW} {
			if strings.Contains(text, secret) {
				t.Errorf("%s shows a secret:\n%s", where, text)
			}
		}
	}
}
