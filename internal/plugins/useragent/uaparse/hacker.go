package uaparse

import "strings"

// hackerInfo describes a user agent that is an attack rather than a client.
type hackerInfo struct {
	vector  string // HackerAttackVector
	toolkit string // HackerToolkit
	agent   string // agent name when a scanner names itself (Nikto)
	version string
}

// Signatures of injection attempts, matched on the lower case user agent.
// Each one is a fragment that a real client never sends; they cover SQL,
// script, template, shell, code and directory traversal payloads.
var sqlSignatures = []string{
	"select ", "select(", "union all", "union select", "sleep(", "waitfor delay", "' or ", "\" or ", "\"\" or ",
	"') or ", "' and ", " and 1=1", " or 1=1", "xor(", "benchmark(", "extractvalue(", "updatexml(",
	"pg_sleep", "dbms_pipe", "xp_dirtree", "make_set(", " rlike ", "case when", "from dual",
	"utl_inaddr", "char(", "chr(", "concat(0x", "--\"", "/**/", "';", "\";",
	"convert(int", "rdb$database", "declare @", "exec master", ")--", "'--",
}

var scriptSignatures = []string{
	"<script", "</script", "javascript:", "onload=", "onerror=", "onmouseover=", "alert(", "<svg", "<img",
	"<?xml", "<!doctype", "<!entity", "<esi:", "xmlns", "%3cscript", "</title>", "</textarea>", "prompt(",
	"<iframe", "document.cookie", "xss", "<bgy", "<body",
}

var codeSignatures = []string{
	"() {", "(){", "$(", "|echo", "; echo", ";echo", "/bin/", "wget ", "nslookup", "perl -e", "cmd=", "${jndi", "${@", "${${", "${lower", "${env", "${::",
	"{{", "eval(", "__import__", "require\"", "require(", "gethostbyname", "system(", "passthru(",
	"exec(", "phpinfo", "md5(", "base64_decode", "|| ping", "; ping", "&& ping", "| bash", "|bash",
	".concat(", "print(", "curl -", "/dev/tcp", "bxss.me", "burpcollaborator", ".to_s)",
	"s:2:\\\"", "$((", "{s:", "cat /etc", "' + ", "'+(", "\"+(", "ping -c",
}

var traversalSignatures = []string{
	"../", "..\\", "..%2f", "..%5c", "%2e%2e", "%252e", "..%252f", "..%255c", "..%c0%af", "/etc/passwd",
	"boot.ini", "win.ini", "file:///", "web-inf", "/etc/group", "/proc/",
}

// hackerToolkits maps a lower case marker to the scanner that leaves it.
var hackerToolkits = []struct{ marker, name string }{
	{"sqlmap", "Sqlmap"}, {"acunetix", "Acunetix"}, {"nessus", "Nessus"}, {"nikto", "Nikto"},
	{"assetnote", "Assetnote"}, {"no_random_ua_found", "OpenBullet"}, {"googlesecurityscanner", "Google Security Scanner"},
	{"netsparker", "Netsparker"}, {"wpscan", "WPScan"}, {"nmap", "Nmap"}, {"anyconnect darwin_i386", "Nmap"},
	{"zgrab", "ZGrab"}, {"openvas", "OpenVAS"}, {"w3af", "w3af"}, {"dirbuster", "DirBuster"}, {"burp", "Burp"},
	{"arachni", "Arachni"}, {"jaeles", "Jaeles"}, {"nuclei", "Nuclei"}, {"tenable", "Tenable"},
}

// detectHacker returns the attack found in the user agent, if any.
func detectHacker(p *parsed) (hackerInfo, bool) {
	low := p.low
	h := hackerInfo{vector: Unknown, toolkit: Unknown}
	if p.hasAny(&toolkitNeedles) {
		for _, t := range hackerToolkits {
			if strings.Contains(low, t.marker) {
				h.toolkit = t.name
				break
			}
		}
	}
	found := h.toolkit != Unknown
	switch {
	case p.has(kwSSIExec):
		h.vector, found = "Serverside execute", true
	case p.has(kwSSIInclude):
		h.vector, found = "Serverside include", true
	case p.hasAny(&traversalNeedles):
		h.vector, found = "Path Traversal", true
	case p.hasAny(&scriptNeedles), p.hasAny(&codeNeedles), p.hasAny(&sqlNeedles) && sqlContext(low):
		h.vector, found = "Code Injection", true
	}
	if h.toolkit == "Nikto" {
		if pr, ok := p.product("Nikto"); ok {
			h.agent, h.version = "Nikto", pr.version
		}
		if v, ok := p.entryVersion("test:"); ok {
			_ = v
			for _, e := range p.entries {
				if lt := p.ltext(e); strings.HasPrefix(lt, "test:") {
					h.vector = "Nikto test:" + p.text(e)[5:]
				}
			}
		}
	}
	if !found {
		found = junkUserAgent(p)
	}
	return h, found
}

// sqlContext confirms an SQL signature: "' or " and friends are only an
// attack together with SQL syntax or a comparison; this keeps "Rock 'n'
// roll" style names out.
func sqlContext(low string) bool {
	return strings.Contains(low, "=") || strings.Contains(low, "(") || strings.Contains(low, "--") ||
		strings.Contains(low, "select") || strings.Contains(low, "sleep") || strings.Contains(low, "waitfor")
}

// The signature groups are answered by the single pass of uaNeedles over
// the string, which keeps hacker detection cheap on the hot path of every
// analysis.
var (
	sqlNeedles       = uaNeedles.group(sqlSignatures)
	scriptNeedles    = uaNeedles.group(scriptSignatures)
	codeNeedles      = uaNeedles.group(codeSignatures)
	traversalNeedles = uaNeedles.group(traversalSignatures)
	toolkitNeedles   = uaNeedles.group(func() []string {
		var out []string
		for _, t := range hackerToolkits {
			out = append(out, t.marker)
		}
		return out
	}())
	kwSSIExec    = uaNeedles.add("<!--#exec")
	kwSSIInclude = uaNeedles.add("<!--#include")

	// A Sec-CH-UA client hint header pasted in as a user agent.
	kwHintEscaped = uaNeedles.add(";v=\\\"")
	kwHintQuoted  = uaNeedles.add("\";v=\"")
)

// junkUserAgent recognises strings that are not user agents at all: a bare
// URL, a client hint header pasted in, a placeholder left by a tool.
func junkUserAgent(p *parsed) bool {
	low := strings.TrimSpace(p.low)
	switch {
	case strings.HasPrefix(low, "http://") || strings.HasPrefix(low, "https://") || strings.HasPrefix(low, "hthttp"):
		return true
	case p.has(kwHintEscaped) || p.has(kwHintQuoted):
		return true
	case strings.HasPrefix(low, ";__ct_job_id__"):
		return true
	}
	return false
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
