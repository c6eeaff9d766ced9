package grok

// legacyOwn holds Weir's legacy field names for go-grok definitions whose
// text differs from Logstash's legacy one (so that tools/grokfields cannot
// align them) but matches the same lines: by pattern, the field part of
// each reference and named group of the built-in (ECS) definition, in
// order, as legacyFields. "" captures nothing; =name captures a skipped
// placeholder (- or -1) too, "name a quoted string with its quotes
// (withFields).
var legacyOwn = map[string][]string{
	"REDISMONLOG":     {"timestamp", "database", "client", "port", "command", "params"},
	"HTTPD_COMMONLOG": {"clientip", "=ident", "=auth", "timestamp", "verb", "request", "httpversion", "rawrequest", "response", "bytes"},
	"SQUID3":          {"timestamp", "duration", "client_address", "cache_result", "", "bytes", "request_method", "url", "=user", "hierarchy_code", "server", "=content_type"},
	"SQUID3_STATUS":   {"status_code"},
	"HAPROXYHTTP":     {"syslog_timestamp", "timestamp8601", "syslog_server", "", ""},
	"HAPROXYHTTPBASE": {"client_ip", "client_port", "accept_date", "frontend_name", "backend_name", "=server_name", "=time_request", "=time_queue",
		"=time_backend_connect", "=time_backend_response", "time_duration", "http_status_code", "bytes_read", "=captured_request_cookie",
		"=captured_response_cookie", "termination_state", "actconn", "feconn", "beconn", "srvconn", "retries", "srv_queue", "backend_queue", "", "", ""},
	"HAPROXYHTTPREQUESTLINE": {"http_verb", "", "http_version"},
	"ELB_V1_HTTP_LOG": {"timestamp", "elb", "clientip", "clientport:int", "backendip", "backendport:int", "=request_processing_time:float",
		"=backend_processing_time:float", "=response_processing_time:float", "response:int", "backend_response:int", "received_bytes:int", "bytes:int", "", "", "", ""},
	"ELB_REQUEST_LINE": {"verb", "request", "httpversion"},
	"ELB_URI":          {"proto", "", "", ""},
	"ELB_URIPATHQUERY": {"path", "params"},
	"S3_ACCESS_LOG": {"owner", "bucket", "timestamp", "clientip", "=requester", "request_id", "operation", "=key", "", "response:int", "error_code",
		"bytes:int", "object_size:int", "request_time_ms:int", "turnaround_time_ms:int", `"referrer`, `"agent`, "version_id", "", "", "", "", "", ""},
	"S3_REQUEST_LINE":                {"verb", "request", "httpversion"},
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
	"HAPROXYTCP": {"syslog_timestamp", "timestamp8601", "syslog_server", "", "client_ip", "client_port", "accept_date", "frontend_name", "backend_name", "=server_name",
		"=time_queue", "=time_backend_connect", "time_duration", "bytes_read", "termination_state", "actconn", "feconn", "beconn", "srvconn", "retries", "srv_queue", "backend_queue"},
	"BRO_DNS": {"=ts", "=uid", "=orig_h", "=orig_p", "=resp_h", "=resp_p", "=proto", "=trans_id", "=query", "=qclass", "=qclass_name", "=qtype", "=qtype_name",
		"=rcode", "=rcode_name", "=AA", "=TC", "=RD", "=RA", "=Z", "=answers", "=TTLs", "=rejected"},
	"BRO_HTTP": {"=ts", "=uid", "=orig_h", "=orig_p", "=resp_h", "=resp_p", "=trans_depth", "=method", "=domain", "=uri", "=referrer", "=user_agent",
		"=request_body_len", "=response_body_len", "=status_code", "=status_msg", "=info_code", "=info_msg", "=filename", "=bro_tags", "=username", "=password",
		"=proxied", "=orig_fuids", "=orig_mime_types", "=resp_fuids", "=resp_mime_types"},
	"BRO_FILES": {"=ts", "=fuid", "=tx_hosts", "=rx_hosts", "=conn_uids", "=source", "=depth", "=analyzers", "=mime_type", "=filename", "=duration", "=local_orig",
		"=is_orig", "=seen_bytes", "=total_bytes", "=missing_bytes", "=overflow_bytes", "=timedout", "=parent_fuid", "=md5", "=sha1", "=sha256", "=extracted"},
}

// legacyTexts are Weir's legacy definitions where the legacy pattern
// matches text go-grok's does not capture whole: a quoted string with its
// quotes.
var legacyTexts = map[string]string{
	"HTTPD_COMBINEDLOG": `%{HTTPD_COMMONLOG} %{QS:referrer} %{QS:agent}`,
	// The host with its port, as one field.
	"ELB_URIHOST": `(?<urihost>%{IPORHOST}(?::%{POSINT:port})?)`,
	"HAPROXYURI":  `(?:%{URIPROTO:http_proto}://)?(?:%{USER:http_user}(?::[^@]*)?@)?(?<http_host>%{IPORHOST}(?::%{POSINT})?)?(?<http_request>%{URIPATH}(?:\?%{URIQUERY})?)?`,
}
