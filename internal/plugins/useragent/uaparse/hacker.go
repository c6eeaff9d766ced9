package uaparse

import "strings"

// hackerInfo describes a user agent that is an attack rather than a client.
type hackerInfo struct {
	vector  string // HackerAttackVector
	toolkit string // HackerToolkit
	agent   string // agent name when a scanner names itself (Nikto)
	version string
}

// Signatures of injection attempts and forged user agents, matched on the
// lower case user agent (tables/attack_signatures.tsv): fragments that a
// real client never sends, covering SQL, script, template, shell, code and
// directory traversal payloads, fuzzing probes and hand-typed typos.
var (
	sqlSignatures       []string
	scriptSignatures    []string
	codeSignatures      []string
	shellSignatures     []string
	traversalSignatures []string
	probeSignatures     []string
	typoSignatures      []string
)

// hackerToolkits maps a lower case marker to the scanner that leaves it
// (tables/hacker_toolkits.tsv); the first marker found wins.
var hackerToolkits []struct{ marker, name string }

func buildHackerToolkits() []struct{ marker, name string } {
	rows := loadTable("hacker_toolkits.tsv", tableColumns["hacker_toolkits.tsv"])
	out := make([]struct{ marker, name string }, len(rows))
	for i, r := range rows {
		out[i].marker, out[i].name = r[0], r[1]
	}
	return out
}

// detectHacker returns the attack found in the user agent, if any.
func detectHacker(p *parsed) (hackerInfo, bool) {
	low := p.low
	h := hackerInfo{vector: Unknown, toolkit: Unknown}
	if p.has(kwHintEscaped) || p.has(kwHintQuoted) {
		// A Sec-CH-UA header pasted in as a user agent: its quotes and
		// semicolons are not an injection.
		return h, true
	}
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
	case p.hasAny(&scriptNeedles), p.hasAny(&codeNeedles), p.hasAny(&sqlNeedles) && sqlContext(low),
		p.hasAny(&shellNeedles) && containsAny(p.ua, shellSignatures),
		p.has(kwXSS) && xssWord(low):
		h.vector, found = "Code Injection", true
	}
	if h.toolkit == "Nikto" {
		// Nikto names itself inside the comment: "Mozilla/5.00
		// (Nikto/2.1.5) (Evasions:None) (Test:000964)".
		if i := strings.Index(low, "nikto/"); i >= 0 {
			v := p.ua[i+len("nikto/"):]
			end := 0
			for end < len(v) && (v[end] >= '0' && v[end] <= '9' || v[end] == '.') {
				end++
			}
			h.agent, h.version = "Nikto", v[:end]
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
		found = junkUserAgent(p) || p.hasAny(&probeNeedles) || p.hasAny(&typoNeedles) || impossibleCPU(p)
	}
	return h, found
}

// xssWord reports "xss" standing as a word ("alert(/XSS/)",
// "tenable_wasscan_xss_in_element"): privacy tools replace versions with
// random letters ("Firefox/HXSS", "Edg/1DGWMNWXSSP"), which contain it
// by chance inside a longer run of letters and digits.
func xssWord(low string) bool {
	for i := 0; ; {
		k := strings.Index(low[i:], "xss")
		if k < 0 {
			return false
		}
		k += i
		if (k == 0 || !isWordByte(low[k-1])) && (k+3 == len(low) || !isWordByte(low[k+3])) {
			return true
		}
		i = k + 3
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// impossibleCPU recognises a made-up processor in a forged user agent:
// "Linux x187_64" copies the shape of "x86_64" with digits no processor
// family has.
func impossibleCPU(p *parsed) bool {
	if !p.has(kwUnderscore64) {
		return false
	}
	for _, e := range p.entries {
		lt := p.ltext(e)
		if !strings.HasSuffix(lt, "_64") {
			continue
		}
		i := len(lt) - 3
		j := i
		for j > 0 && lt[j-1] >= '0' && lt[j-1] <= '9' {
			j--
		}
		if j == i || j == 0 || lt[j-1] != 'x' || j >= 2 && isWordByte(lt[j-2]) {
			continue
		}
		// "x64_64" is a common slip for x86_64 in real user agents.
		if d := lt[j:i]; d != "86" && d != "64" {
			return true
		}
	}
	return false
}

// sqlContext confirms an SQL signature: "' or " and friends are only an
// attack together with SQL syntax or a comparison; this keeps "Rock 'n'
// roll" style names out. A parenthesis counts only as a function's
// ("char(", "xor(", "sleep("): the one that opens a comment follows a
// space in nearly every user agent, so it would confirm prose between
// products ("ArchiveBot/20220523 (wpull 2.0.3) and not Mozilla/5.0"). A
// quote closed and followed by a semicolon ends the statement it broke
// out of ("Safari/537.36';"), which is SQL's syntax in itself.
func sqlContext(low string) bool {
	return strings.Contains(low, "=") || functionCall(low) || strings.Contains(low, "--") ||
		strings.Contains(low, "';") || strings.Contains(low, "\";") ||
		strings.Contains(low, "select") || strings.Contains(low, "sleep") || strings.Contains(low, "waitfor")
}

// functionCall reports a parenthesis written right after a word, as a
// function is called in SQL.
func functionCall(low string) bool {
	for i := 1; i < len(low); i++ {
		if low[i] == '(' && isWordByte(low[i-1]) {
			return true
		}
	}
	return false
}

// The signature groups are answered by the single pass of uaNeedles over
// the string, which keeps hacker detection cheap on the hot path of every
// analysis.
var (
	sqlNeedles       needleGroup
	scriptNeedles    needleGroup
	codeNeedles      needleGroup
	shellNeedles     needleGroup
	traversalNeedles needleGroup
	toolkitNeedles   needleGroup
	// Fuzzing probes (an encoded NUL byte or line break, a test site of
	// a vulnerability scanner) and forged user agents typed by hand, which
	// swap two letters of the words every browser sends ("Mozlila/5.0",
	// "Moblie Safari", "Bulid/NRD90M").
	probeNeedles   needleGroup
	typoNeedles    needleGroup
	kwXSS          needleID
	kwUnderscore64 needleID
	kwSSIExec      needleID
	kwSSIInclude   needleID

	// A Sec-CH-UA client hint header pasted in as a user agent.
	kwHintEscaped needleID
	kwHintQuoted  needleID
)

func buildToolkitNeedles() needleGroup {
	var out []string
	for _, t := range hackerToolkits {
		out = append(out, t.marker)
	}
	return uaNeedles.group(out)
}

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
	case low == "user-agent" || low == "user agent":
		// The header's name where its value belongs: a template or a
		// probe, not a client.
		return true
	case low != "" && low[0] == '@':
		// No product name starts with '@'; mail-style tokens such as
		// "@@VI1wa" are markers planted by scanners.
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
