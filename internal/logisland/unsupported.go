package logisland

import (
	"sort"

	"github.com/weir-streams/weir/internal/component"
)

// DocPointer is where a refused LogIsland component is explained.
const DocPointer = `docs/operations.md, "Jobs written for LogIsland"`

// Why Weir does not offer a LogIsland component, by family. The docs
// table (docs/operations.md) gives the same reasons.
const (
	whySolr        = "Solr and Chronix are not stores Weir writes to; index through the search-index service (Elasticsearch or OpenSearch over HTTP) or the document-database service"
	whyHBase       = "HBase is not a store Weir reads or writes"
	whyHDFS        = "Weir writes no files to HDFS; write to Kafka and let a sink connector archive the topic"
	whyConnect     = "Kafka Connect runs beside Weir, not inside it: run the connector in a Connect cluster and read its topic"
	whyPython      = "Weir runs no Python or other scripts in its processes; write a plugin (docs/plugins.md)"
	whyExcel       = "Weir parses no Excel workbooks"
	whyOPC         = "Weir has no OPC UA client; bridge OPC UA to Kafka with a connector"
	whyMQTT        = "Weir reads Kafka only; bridge MQTT to Kafka with a connector"
	whyAzure       = "Weir reads Kafka only; Azure Event Hubs' Kafka endpoint is read by Weir's stream instead"
	whyPackets     = "Weir parses no network packets or NetFlow"
	whySQL         = "Weir runs no Spark SQL; aggregate downstream"
	whyWebSessions = "web analytics sessionisation needs state across batches, which Weir's per-partition chain does not keep"
	whyOutliers    = "outlier detection needs state across batches, which Weir's per-partition chain does not keep"
	whyStateful    = "it needs state across batches, which Weir's per-partition chain does not keep"
	whyOtherStore  = "the store is not one Weir writes to"
	whyRest        = "Weir makes no HTTP calls per record"
	whyNotOffered  = "Weir does not offer it"
	whyStream      = "Weir has one stream, Kafka to Kafka (pkg.stream.engine.BrokerRecordStreamParallelProcessing)"
)

// unsupported are LogIsland's components (prefix changed) that Weir does
// not offer, with why: the registry refuses each with its reason and
// DocPointer instead of calling it unknown (RefuseUnsupported).
var unsupported = map[string]string{
	// Solr and Chronix.
	"pkg.service.solr.Solr_5_5_5_ClientService":                                          whySolr,
	"pkg.service.solr.Solr_6_6_2_ClientService":                                          whySolr,
	"pkg.service.solr.Solr_6_4_2_ChronixClientService":                                   whySolr,
	"pkg.service.solr.Solr8ClientService":                                                whySolr,
	"pkg.processor.ConvertToTimeseries":                                                  whySolr,
	"pkg.service.hbase.HBase_1_1_2_ClientService":                                        whyHBase,
	"pkg.processor.hbase.PutHBaseCell":                                                   whyHBase,
	"pkg.processor.hbase.FetchHBaseRow":                                                  whyHBase,
	"pkg.stream.spark.KafkaRecordStreamHDFSBurner":                                       whyHDFS,
	"pkg.stream.spark.provider.KafkaConnectStructuredSourceProviderService":              whyConnect,
	"pkg.stream.spark.provider.KafkaConnectStructuredSinkProviderService":                whyConnect,
	"pkg.connect.source.KafkaConnectStreamSource":                                        whyConnect,
	"pkg.connect.sink.KafkaConnectStreamSink":                                            whyConnect,
	"pkg.connect.sink.NullSink":                                                          whyConnect,
	"pkg.connect.opc.ua.OpcUaSourceConnector":                                            whyOPC,
	"pkg.processor.scripting.python.RunPython":                                           whyPython,
	"pkg.cv.processor.RunScript":                                                         whyPython,
	"pkg.processor.excel.ExcelExtract":                                                   whyExcel,
	"pkg.stream.spark.structured.provider.MQTTStructuredStreamProviderService":           whyMQTT,
	"pkg.stream.spark.structured.provider.AzureEventHubsStructuredStreamProviderService": whyAzure,
	"pkg.processor.networkpacket.ParseNetworkPacket":                                     whyPackets,
	"pkg.processor.netflow.ParseNetflowEvent":                                            whyPackets,
	"pkg.stream.spark.KafkaRecordStreamSQLAggregator":                                    whySQL,
	"pkg.processor.webanalytics.IncrementalWebSession":                                   whyWebSessions,
	"pkg.processor.webAnalytics.IncrementalWebSession":                                   whyWebSessions,
	"pkg.processor.webanalytics.IncrementalWebSessionOld":                                whyWebSessions,
	"pkg.processor.webanalytics.CalculWebSession":                                        whyWebSessions,
	"pkg.processor.webanalytics.ConsolidateSession":                                      whyWebSessions,
	"pkg.processor.webanalytics.SetSourceOfTraffic":                                      whyWebSessions,
	"pkg.processor.webAnalytics.SetSourceOfTraffic":                                      whyWebSessions,
	"pkg.processor.webAnalytics.setSourceOfTraffic":                                      whyWebSessions,
	"pkg.processor.webanalytics.URIDecoder":                                              whyWebSessions,
	"pkg.processor.webanalytics.URLCleaner":                                              whyWebSessions,
	"pkg.processor.DetectOutliers":                                                       whyOutliers,
	// Other components of LogIsland's sources that Weir does not offer.
	"pkg.processor.ComputeAggsProcessor":                                                    whyStateful,
	"pkg.processor.SelectDistinctRecords":                                                   whyStateful,
	"pkg.processor.MergeRecordProcessor":                                                    whyStateful,
	"pkg.processor.RecordsCounter":                                                          whyStateful,
	"pkg.processor.SplitTextMultiline":                                                      whyStateful,
	"pkg.service.cassandra.CassandraControllerService":                                      whyOtherStore,
	"pkg.service.influxdb.InfluxDBControllerService":                                        whyOtherStore,
	"pkg.processor.datastore.EnrichRecords":                                                 whyNotOffered + "; EnrichRecordsElasticsearch reads the search index",
	"pkg.processor.datastore.MultiGet":                                                      whyNotOffered + "; MultiGetElasticsearch reads the search index",
	"pkg.rest.processor.lookup.CallRequest":                                                 whyRest,
	"pkg.rest.processor.lookup.AsyncCallRequest":                                            whyRest,
	"pkg.rest.processor.lookup.AsyncCallRequestBulkPostJson":                                whyRest,
	"pkg.rest.service.lookup.RestLookupService":                                             whyRest,
	"pkg.rest.service.proxy.StandardProxyConfigurationService":                              whyRest,
	"pkg.processor.SendMail":                                                                whyNotOffered + " (mail per record)",
	"pkg.processor.DecodeBase64":                                                            whyNotOffered,
	"pkg.processor.EncodeBase64":                                                            whyNotOffered,
	"pkg.processor.EncryptField":                                                            whyNotOffered + "; MaskFields hashes or masks fields",
	"pkg.processor.ExpandMapFields":                                                         whyNotOffered,
	"pkg.processor.GenerateRandomRecord":                                                    whyNotOffered,
	"pkg.processor.SplitRecord":                                                             whyNotOffered,
	"pkg.processor.parser.ParseGitlabLog":                                                   whyNotOffered,
	"pkg.processor.xml.EvaluateXPath":                                                       whyNotOffered,
	"pkg.stream.spark.KafkaRecordStreamDebugger":                                            whyStream + "; DebugStream logs records",
	"pkg.engine.vanilla.stream.amqp.AmqpClientPipelineStream":                               whyStream,
	"pkg.stream.spark.structured.provider.LocalFileStructuredStreamProviderService":         whyStream,
	"pkg.stream.spark.structured.provider.ElasticSearchStructuredStreamSinkProviderService": whyStream + "; BulkAddSearchIndex indexes records",
	"pkg.stream.spark.structured.provider.KafkaStructuredStreamProviderServiceReader":       whyStream,
	// Taken only as a whole (RewriteStructured): these are refused when
	// the rewrite could not take them.
	StructuredStream: whyStructured,
	KafkaProvider:    whyStructured,
	ConsoleProvider:  whyStructured,
}

// whyStructured is why a structured stream or provider was left.
const whyStructured = "a StructuredStream is Weir's stream when it reads from a KafkaStructuredStreamProviderService and writes to one or to a ConsoleStructuredStreamProviderService; this one's other provider is not one of them"

// Unsupported returns, sorted by identifier, LogIsland's components that
// Weir refuses, each with its reason: for documentation and tests.
func Unsupported() [][2]string {
	out := make([][2]string, 0, len(unsupported))
	for id, why := range unsupported {
		out = append(out, [2]string{id, why})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// RefuseUnsupported makes reg refuse each unsupported LogIsland component
// with its name, its reason and DocPointer, rather than as unknown.
func RefuseUnsupported(reg *component.Registry) {
	for id, why := range unsupported {
		reg.Refuse(id, "LogIsland's "+id+" is not offered by Weir: "+why+" ("+DocPointer+")")
	}
}
