package app

import (
	"testing"
	"time"

	"github.com/weir-streams/weir/internal/dataflow"
)

func TestNextDataFlow(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 8, 0, 0, 0, time.UTC)
	now := t0.Add(time.Hour)
	proc := func(typ string) []dataflow.Component {
		return []dataflow.Component{{Name: "p", Component: "pkg.processor.SplitText", Config: []dataflow.Property{{Key: "record.type", Value: typ}}}}
	}
	stream := func(topic, typ string) dataflow.Stream {
		return dataflow.Stream{Component: dataflow.Component{Name: "s", Component: "pkg.stream.x", Config: []dataflow.Property{{Key: "broker.input.topics", Value: topic}}},
			Pipeline: dataflow.Pipeline{LastModified: t0, Processors: proc(typ)}}
	}
	running := &dataflow.DataFlow{Name: "app", LastModified: t0, Streams: []dataflow.Stream{stream("raw", "a"), stream("raw2", "a")}}
	running.Streams[1].Name = "s2"
	next := func(edit func(d *dataflow.DataFlow)) *dataflow.DataFlow {
		d := running.Clone()
		d.LastModified = now // what a file read again says: its new time everywhere
		for i := range d.Streams {
			d.Streams[i].Pipeline.LastModified = now
		}
		edit(d)
		return d
	}

	df, kind := nextDataFlow(running, next(func(*dataflow.DataFlow) {}), now)
	if kind != "none" || !df.LastModified.Equal(t0) {
		t.Errorf("unchanged file: %s, lastModified %v", kind, df.LastModified)
	}
	df, kind = nextDataFlow(running, next(func(d *dataflow.DataFlow) { d.Streams[1].Pipeline.Processors = proc("b") }), now)
	if kind != "pipeline" || !df.LastModified.Equal(t0) || !df.Streams[0].Pipeline.LastModified.Equal(t0) || !df.Streams[1].Pipeline.LastModified.Equal(now) {
		t.Errorf("processor edit: %s, dataflow %v, pipelines %v %v", kind, df.LastModified, df.Streams[0].Pipeline.LastModified, df.Streams[1].Pipeline.LastModified)
	}
	df, kind = nextDataFlow(running, next(func(d *dataflow.DataFlow) { d.Streams[0].Config[0].Value = "other" }), now)
	if kind != "dataflow" || !df.LastModified.Equal(now) {
		t.Errorf("stream key edit: %s, lastModified %v", kind, df.LastModified)
	}
	// A clock behind the running dataflow still moves it on.
	df, kind = nextDataFlow(running, next(func(d *dataflow.DataFlow) { d.Services = []dataflow.Component{{Name: "svc"}} }), t0.Add(-time.Hour))
	if kind != "dataflow" || !df.LastModified.After(t0) {
		t.Errorf("service added, clock behind: %s, lastModified %v", kind, df.LastModified)
	}
}
