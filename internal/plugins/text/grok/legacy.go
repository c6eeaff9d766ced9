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
	"SQUID3_STATUS":   {"status_code", ""},
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
	"S3_REQUEST_LINE": {"verb", "request", "httpversion"},
	// Cisco ASA messages.
	"CISCOFW106100":                      {"policy_id", "action", "protocol", "src_interface", "src_ip", "src_port", "src_fwuser", "dst_interface", "dst_ip", "dst_port", "src_fwuser", "hit_count", "interval", "hashcode1", "hashcode2"},
	"CISCOFW302020_302021":               {"action", "direction", "protocol", "dst_ip", "icmp_seq_num", "fwuser", "src_xlated_ip", "icmp_code_xlated", "src_ip", "icmp_code", "user"},
	"CISCOFW106021":                      {"action", "protocol", "src_ip", "dst_ip", "interface"},
	"CISCOFW106015":                      {"action", "protocol", "policy_id", "src_ip", "src_port", "dst_ip", "dst_port", "tcp_flags", "interface"},
	"CISCOFW106006_106007_106010":        {"action", "direction", "protocol", "src_ip", "src_port", "src_fwuser", "dst_ip", "dst_port", "dst_fwuser", "interface", "reason"},
	"CISCOFW106001":                      {"direction", "protocol", "action", "src_ip", "src_port", "dst_ip", "dst_port", "tcp_flags", "interface"},
	"CISCOFW713172":                      {"group", "src_ip", "is_remote_natted", "is_local_natted"},
	"CISCOFW602303_602304":               {"protocol", "direction", "tunnel_type", "spi", "src_ip", "dst_ip", "user", "action"},
	"CISCOFW419001":                      {"action", "protocol", "src_interface", "src_ip", "src_port", "dst_interface", "dst_ip", "dst_port", "reason"},
	"CISCOFW402119":                      {"protocol", "orig_protocol", "spi", "seq_num", "src_ip", "user", "dst_ip"},
	"CISCOFW402117":                      {"protocol", "orig_protocol", "src_ip", "dst_ip"},
	"CISCOFW313001_313004_313008":        {"action", "protocol", "icmp_type", "icmp_code", "src_ip", "interface", "dst_ip"},
	"CISCOFW305011":                      {"action", "xlate_type", "protocol", "src_interface", "src_ip", "src_port", "src_fwuser", "src_xlated_interface", "src_xlated_ip", "src_xlated_port"},
	"CISCOFW304001":                      {"src_ip", "src_fwuser", "dst_ip", "dst_url"},
	"CISCOFW302013_302014_302015_302016": {"action", "direction", "protocol", "connection_id", "src_interface", "src_ip", "src_port", "src_mapped_ip", "src_mapped_port", "src_fwuser", "dst_interface", "dst_ip", "dst_port", "dst_mapped_ip", "dst_mapped_port", "dst_fwuser", "duration", "bytes", "reason", "user"},
	// Exim.
	"EXIM_MESSAGE_ARRIVAL": {"timestamp", "", "exim_msgid", "exim_flags", "exim_status", "exim_sender_email", "", "", "exim_recipient_email"},
	"EXIM_REMOTE_HOST":     {"remote_hostname", "remote_heloname", "remote_host", "remote_port"},
	"EXIM_INTERFACE":       {"exim_interface", "exim_interface_port"},
	"EXIM_DATE":            {"exim_year", "exim_month", "exim_day", "exim_time"},
	// Juniper SRX flows.
	"RT_FLOW1": {"event", "close-reason", "src-ip", "src-port", "dst-ip", "dst-port", "service", "nat-src-ip", "nat-src-port", "nat-dst-ip", "nat-dst-port",
		"=src-nat-rule-name", "=dst-nat-rule-name", "protocol-id", "policy-name", "from-zone", "to-zone", "session-id", "sent", "received", "elapsed-time"},
	"RT_FLOW2": {"event", "src-ip", "src-port", "dst-ip", "dst-port", "service", "nat-src-ip", "nat-src-port", "nat-dst-ip", "nat-dst-port",
		"=src-nat-rule-name", "=dst-nat-rule-name", "protocol-id", "policy-name", "from-zone", "to-zone", "session-id"},
	"RT_FLOW3": {"event", "src-ip", "src-port", "dst-ip", "dst-port", "service", "protocol-id", "policy-name", "from-zone", "to-zone"},
	"BRO_CONN": {"ts", "uid", "orig_h", "orig_p", "resp_h", "resp_p", "proto", "=service", "duration", "orig_bytes", "resp_bytes", "=conn_state",
		"=local_orig", "", "missed_bytes", "=history", "orig_pkts", "orig_ip_bytes", "resp_pkts", "resp_ip_bytes", "=tunnel_parents"},
	// Netfilter (iptables) lines, as SFW2 and SHOREWALL read them.
	"IPTABLES":          {"nf_in_interface", "nf_out_interface", "nf_dst_mac", "nf_src_mac", "", "", "nf_protocol", "nf_src_port", "nf_dst_port", ""},
	"IPTABLES4_PART":    {"nf_src_ip", "nf_dst_ip", "nf_len", "nf_tos", "", "nf_prec", "", "nf_ttl", "nf_id", "", ""},
	"IPTABLES6_PART":    {"nf_src_ip", "nf_dst_ip", "", "", "", ""},
	"IPTABLES_TCP_PART": {"", "", "", "", ""},
	"SFW2":              {"timestamp", "timestamp", "", "", ""},
	"SFW2_LOG_PREFIX":   {"nf_action"},
	"SHOREWALL":         {"timestamp", "nf_host", "nf_action1", "nf_action2", ""},
	"CLOUDFRONT_ACCESS_LOG": {"timestamp", "", "", "", "", "x_edge_location", "sc_bytes:int", "clientip", "cs_method", "cs_host", "cs_uri_stem", "sc_status:int",
		"=referrer", "agent", "=cs_uri_query", "=cookies", "x_edge_result_type", "x_edge_request_id", "x_host_header", "cs_protocol", "cs_bytes:int",
		"time_taken:float", "=x_forwarded_for", "=ssl_protocol", "=ssl_cipher", "x_edge_response_result_type", "", "", "", "", "", "", "", "", "", ""},
	"MONGO3_LOG":                     {"timestamp", "severity", "=component", "", "context", "message"},
	"SYSLOGBASE2":                    {"timestamp", "timestamp8601", "", "logsource", ""},
	"SYSLOG5424BASE":                 {"", "syslog5424_ver", "syslog5424_ts", "syslog5424_host", "syslog5424_app", "syslog5424_proc", "syslog5424_msgid", "syslog5424_sd"},
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
	"EXIM_SUBJECT": `(T=%{QS:exim_subject})`,
	"ELB_URIHOST":  `(?<urihost>%{IPORHOST}(?::%{POSINT:port})?)`,
	"HAPROXYURI":   `(?:%{URIPROTO:http_proto}://)?(?:%{USER:http_user}(?::[^@]*)?@)?(?<http_host>%{IPORHOST}(?::%{POSINT})?)?(?<http_request>%{URIPATH}(?:\?%{URIQUERY})?)?`,
}

// legacyEdits change go-grok's text before legacyOwn names its fields,
// where Logstash's legacy text captures text the ECS one leaves out:
// TOS=0x00 is "0x00", not "00".
var legacyEdits = map[string][][2]string{
	// Squid's 000 (no response) is a status code too.
	"SQUID3_STATUS": {{`(?:%{POSINT:http.response.status_code:int}|0|000)`, `(?<http.response.status_code>%{POSINT}|0|000)`}},
	"IPTABLES4_PART": {
		{`(?:0|0x%{BASE16NUM:iptables.tos})?`, `(?<iptables.tos>0|0x%{BASE16NUM})?`},
		{`(?:0x%{BASE16NUM:iptables.precedence_bits})?`, `(?<iptables.precedence_bits>0x%{BASE16NUM})?`},
	},
}
