package grok

// legacyOwn holds Weir's legacy field names for go-grok definitions whose
// text differs from Logstash's legacy one (so that tools/grokfields cannot
// align them) but matches the same lines: by pattern, the field part of
// each reference and named group of the built-in (ECS) definition, in
// order, as legacyFields. "" captures nothing.
var legacyOwn = map[string][]string{
	"REDISMONLOG":                    {"timestamp", "database", "client", "port", "command", "params"},
	"REDISLOG":                       {"pid", "timestamp"},
	"MONGO3_LOG":                     {"timestamp", "severity", "component", "", "context", "message"},
	"SYSLOGBASE2":                    {"timestamp", "timestamp8601", "", "logsource", ""},
	"SYSLOG5424PRI":                  {"syslog5424_pri"},
	"SYSLOG5424BASE":                 {"", "syslog5424_ver", "syslog5424_ts", "syslog5424_host", "syslog5424_app", "syslog5424_proc", "syslog5424_msgid", "syslog5424_sd"},
	"SYSLOG5424LINE":                 {"", "syslog5424_msg"},
	"SYSLOGPAMSESSION":               {"", "message", "pam_module", "pam_caller", "pam_session_state", "username", "pam_by"},
	"HTTPD20_ERRORLOG":               {"timestamp", "loglevel", "clientip", "message"},
	"HTTPD24_ERRORLOG":               {"timestamp", "module", "loglevel", "pid", "tid", "proxy_errorcode", "proxy_message", "clientip", "clientport", "errorcode", "message"},
	"JAVASTACKTRACEPART":             {"", "class", "method", "file", "line"},
	"HAPROXYTIME":                    {"haproxy_hour", "haproxy_minute", "haproxy_second"},
	"HAPROXYCAPTUREDREQUESTHEADERS":  {"captured_request_headers"},
	"HAPROXYCAPTUREDRESPONSEHEADERS": {"captured_response_headers"},
	"HAPROXYTCP": {"syslog_timestamp", "timestamp8601", "syslog_server", "", "client_ip", "client_port", "accept_date", "frontend_name", "backend_name", "server_name",
		"time_queue", "time_backend_connect", "time_duration", "bytes_read", "termination_state", "actconn", "feconn", "beconn", "srvconn", "retries", "srv_queue", "backend_queue"},
	"BRO_DNS": {"ts", "uid", "orig_h", "orig_p", "resp_h", "resp_p", "proto", "trans_id", "query", "qclass", "qclass_name", "qtype", "qtype_name",
		"rcode", "rcode_name", "AA", "TC", "RD", "RA", "Z", "answers", "TTLs", "rejected"},
	"BRO_FILES": {"ts", "fuid", "tx_hosts", "rx_hosts", "conn_uids", "source", "depth", "analyzers", "mime_type", "filename", "duration", "local_orig",
		"is_orig", "seen_bytes", "total_bytes", "missing_bytes", "overflow_bytes", "timedout", "parent_fuid", "md5", "sha1", "sha256", "extracted"},
}
