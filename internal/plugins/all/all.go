// Package all lists every built-in component of Weir. It is the one place a
// reader looks to find them all, and the one place a new component is added.
package all

import (
	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/engine"
	"github.com/weir-streams/weir/internal/logisland"
	"github.com/weir-streams/weir/internal/plugins/alerting"
	"github.com/weir-streams/weir/internal/plugins/bro"
	"github.com/weir-streams/weir/internal/plugins/cache"
	"github.com/weir-streams/weir/internal/plugins/console"
	"github.com/weir-streams/weir/internal/plugins/dns"
	"github.com/weir-streams/weir/internal/plugins/docdb"
	"github.com/weir-streams/weir/internal/plugins/fields"
	"github.com/weir-streams/weir/internal/plugins/geoip"
	"github.com/weir-streams/weir/internal/plugins/lucene"
	"github.com/weir-streams/weir/internal/plugins/redis"
	"github.com/weir-streams/weir/internal/plugins/searchindex"
	"github.com/weir-streams/weir/internal/plugins/text"
	"github.com/weir-streams/weir/internal/plugins/timeseries"
	"github.com/weir-streams/weir/internal/plugins/useragent"
	"github.com/weir-streams/weir/internal/serialize"
	"github.com/weir-streams/weir/internal/stream"
)

// Register adds every built-in component to reg.
func Register(reg *component.Registry) {
	// The engine and its stream.
	reg.Register(engine.Spec())
	reg.Register(stream.Spec())

	// Serializers.
	reg.Register(serialize.RawSpec())
	reg.Register(serialize.JSONSpec())
	reg.Register(serialize.BytesSpec())
	reg.Register(serialize.StringSpec())
	reg.Register(serialize.ExtendedJSONSpec())
	reg.Register(serialize.AvroSpec())

	// Processors.
	reg.Register(text.SplitTextSpec())
	reg.Register(dns.IpToFqdnSpec())
	reg.Register(docdb.BulkPutSpec())
	reg.Register(useragent.ParseUserAgentSpec())
	reg.Register(searchindex.ProcessorSpec())
	// The everyday kit.
	reg.Register(fields.ConvertFieldsTypeSpec())
	reg.Register(fields.AddFieldsSpec())
	reg.Register(fields.RemoveFieldsSpec())
	reg.Register(fields.NormalizeFieldsSpec())
	reg.Register(fields.ModifyIdSpec())
	reg.Register(fields.FilterRecordsSpec())
	reg.Register(fields.ConvertSimpleDateFormatFieldsSpec())
	reg.Register(fields.SetJsonAsFieldsSpec())
	reg.Register(fields.ParsePropertiesSpec())
	reg.Register(fields.SplitFieldSpec())
	reg.Register(fields.EvaluateJsonPathSpec())
	reg.Register(fields.DebugStreamSpec())
	reg.Register(fields.MaskFieldsSpec())
	reg.Register(fields.RouteRecordsSpec())
	reg.Register(geoip.IpToGeoSpec())
	// LogIsland's processors that its shipped job files use.
	reg.Register(fields.ApplyRegexpSpec())
	reg.Register(fields.URLDecoderSpec())
	reg.Register(fields.FlatMapSpec())
	reg.Register(searchindex.EnrichSpec())
	reg.Register(searchindex.MultiGetSpec())
	reg.Register(lucene.MatchQuerySpec())
	reg.Register(lucene.MatchIPSpec())
	reg.Register(alerting.ComputeTagsSpec())
	reg.Register(alerting.CheckThresholdsSpec())
	reg.Register(alerting.CheckAlertsSpec())
	reg.Register(bro.ParseBroEventSpec())
	reg.Register(timeseries.SampleRecordsSpec())
	reg.Register(console.Spec())

	// Controller services.
	reg.Register(docdb.ServiceSpec())
	reg.Register(cache.LRUSpec())
	reg.Register(searchindex.ServiceSpec())
	reg.Register(geoip.ServiceSpec())
	reg.Register(redis.ServiceSpec())
	reg.Register(cache.CSVSpec())

	// LogIsland's components Weir does not offer: refused with why.
	logisland.RefuseUnsupported(reg)
}

// NewRegistry returns a registry with every built-in component.
func NewRegistry() *component.Registry {
	reg := component.NewRegistry()
	Register(reg)
	return reg
}
