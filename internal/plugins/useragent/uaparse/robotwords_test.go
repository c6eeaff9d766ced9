package uaparse

import (
	"strings"
	"testing"
)

// TestRobotWordExamples checks rows of tables/robot_words.tsv with a user
// agent each: the word or product makes the client a robot, on the device
// and on the agent.
func TestRobotWordExamples(t *testing.T) {
	a := New(Options{})
	for _, c := range []struct{ row, ua string }{
		{"monitoring", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 example_partner_monitoring"},
		{"auditor", "Mozilla/5.0 (compatible; ExampleSiteAuditor)"},
		{"extractor", "Mozilla/5.0 (compatible; ExampleExtractor/1.0)"},
		{"prospecting", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) ExampleProspecting/0.1 Safari/537.36"},
		{"observatory", "Mozilla/5.0 (Linux; Android 11; Pixel 5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 ExampleObservatory/1.0"},
		{"lighthouse", "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse"},
		{"firecrawlagent", "Mozilla/5.0 (compatible; FirecrawlAgent/1.0)"},
		{"anthropic", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Anthropic-Claude/1.0; +https://www.anthropic.com)"},
		{"claude-user", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)"},
		{"character-ai", "Mozilla/5.0 (compatible; Character-AI/1.0; +https://character.ai/)"},
		{"uptimia", "Mozilla/5.0 (compatible; Uptimia; www.uptimia.com)"},
		{"scanner", "Mozilla/5.0 (compatible; ExampleSiteScanner/2.1)"},
		{"scanner", "Example-Security-Scanner/1.0"},
		{"prober", "ExampleProber"},
		{"audit", "Example-Audit/1.0"},
		{"retriever", "ExampleApp/2.0 ExampleMetadataRetriever"},
		{"collector", "example.org HTTP-Collector"},
		{"harvester", "ExampleEmailHarvester/2.0"},
		{"exractor", "EMail Exractor"},
		{"emailwolf", "EmailWolf 1.00"},
		{"emailsiphon", "EmailSiphon"},
		{"lookup", "Mozilla/5.0 (compatible; ExampleURLLookup/1.0)"},
		{"favicon", "example-favicon-service/1.0.0"},
		{"recon", "Mozilla/5.0 (compatible; Example Recon; example.com)"},
		{"recon", "example-recon/2.0"},
		{"jiankong", "Mozilla/5.0 (compatible; MSIE 8.0; Windows NT 6.1) ExampleJK yunjiankong 1234"},
		{"expander", "Example:LinkExpander:Short"},
		{"transcoder", "Mozilla/5.0 (Windows; U; Windows NT 6.1; en-US; rv:1.9.2.8; example Transcoder) Gecko/20100722 Firefox/3.6.8"},
		{"verification", "Example Domain Verification"},
		{"site24x7", "Site24x7"},
		{"nodeping", "NodePing"},
		{"thousandeyes", "ThousandEyes-Example-x2"},
		{"shodan", "Shodan-Example/1.0"},
		{"ghost inspector", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Ghost Inspector"},
		{"googleimageproxy", "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:120.0) Gecko Firefox/120.0 (via ggpht.com GoogleImageProxy)"},
		{"collectd", "collectd/5.12.0"},
		{"munin", "munin/http_loadtime"},
		{"keycdn-tools", "keycdn-tools/ttfb"},
		{"sitesucker", "SiteSucker for macOS/3.2.5"},
		{"cohere-ai", "cohere-ai"},
		{"spawning-ai", "Spawning-AI"},
		{"searcher", "ExampleInternetSearcher"},
		{"searchengine", "examplesearchengine-2"},
		{"finder", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko; ExampleShopProductFinder) Chrome/120.0.0.0 Safari/537.36"},
		{"azure-logic-apps", "azure-logic-apps/1.0 (workflow 0123456789abcdef; version 08585012345678901234) microsoft-flow/1.0"},
		{"blogtrottr", "Blogtrottr/2.1"},
		{"l9explore", "l9explore/1.4.0"},
		{"l9tcpid", "l9tcpid/v1.1.0"},
		{"detectify", "Mozilla/5.0 (compatible; Detectify; stateless-http-tests; 00000000-0000-0000-0000-000000000000)"},
		{"freshrss", "FreshRSS/1.24.1 (Linux; https://freshrss.org)"},
		{"internal dummy connection", "Apache/2.4.62 (Debian) (internal dummy connection)"},
	} {
		r := a.Analyze(c.ua)
		if got := r.Get("AgentClass"); got != "Robot" {
			t.Errorf("%s: AgentClass of %q = %q, want Robot", c.row, c.ua, got)
		}
		if got := r.Get("DeviceClass"); got != "Robot" && got != "Robot Mobile" {
			t.Errorf("%s: DeviceClass of %q = %q, want Robot or Robot Mobile", c.row, c.ua, got)
		}
	}
}

// TestNotRobotWordExamples checks the exception rows of
// tables/robot_words.tsv: a name that holds a robot word by accident leaves
// the client what it is.
func TestNotRobotWordExamples(t *testing.T) {
	a := New(Options{})
	for _, c := range []struct{ row, ua, class string }{
		{"camscanner", "Mozilla/5.0 (Linux; Android 12; SM-G991B Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/112.0.5615.48 Mobile Safari/537.36 CamScanner/6.40.0.2305190000", "Phone"},
		{"cubot", "Mozilla/5.0 (Linux; Android 12; CUBOT KINGKONG 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/112.0.0.0 Mobile Safari/537.36", "Phone"},
		{"google wireless transcoder", "Mozilla/5.0 (en-us) AppleWebKit/525.13 (KHTML, like Gecko; Google Wireless Transcoder) Version/3.1 Safari/525.13", "Anonymized"},
	} {
		r := a.Analyze(c.ua)
		if got := r.Get("DeviceClass"); got != c.class {
			t.Errorf("%s: DeviceClass of %q = %q, want %s", c.row, c.ua, got, c.class)
		}
		if got := r.Get("AgentClass"); strings.HasPrefix(got, "Robot") {
			t.Errorf("%s: AgentClass of %q = %q, want no robot", c.row, c.ua, got)
		}
	}
}

// TestHTTPLibraryExamples checks rows of tables/http_libraries.tsv with a
// user agent each: the client is the library, a robot.
func TestHTTPLibraryExamples(t *testing.T) {
	a := New(Options{})
	for _, c := range []struct{ ua, name string }{
		{"ApacheBench/2.3", "ApacheBench"},
		{"python-requests/2.31.0", "Python Requests"},
	} {
		r := a.Analyze(c.ua)
		if got := r.Get("DeviceClass"); got != "Robot" {
			t.Errorf("DeviceClass of %q = %q, want Robot", c.ua, got)
		}
		if got := r.Get("DeviceName"); got != c.name {
			t.Errorf("DeviceName of %q = %q, want %q", c.ua, got, c.name)
		}
	}
}

// TestRobotCompanyExamples checks rows of tables/robot_companies.tsv added
// for products that do not spell their company: the robot is the
// company's.
func TestRobotCompanyExamples(t *testing.T) {
	a := New(Options{})
	for _, c := range []struct{ ua, brand string }{
		{"azure-logic-apps/1.0 (workflow 0123456789abcdef; version 08585012345678901234) microsoft-flow/1.0", "Microsoft"},
		{"l9explore/1.4.0", "LeakIX"},
		{"l9tcpid/v1.1.0", "LeakIX"},
		{"Cloudflare-Healthchecks/1.0", "CloudFlare"},
	} {
		if got := a.Analyze(c.ua).Get("DeviceBrand"); got != c.brand {
			t.Errorf("DeviceBrand of %q = %q, want %q", c.ua, got, c.brand)
		}
	}
}

// TestLibraryAtMozilla checks the short cut of libraryAt: "mozilla" is
// neither a library of tables/http_libraries.tsv nor named like one.
func TestLibraryAtMozilla(t *testing.T) {
	ensureModel()
	if httpLibraries["mozilla"] != "" || libraryNamed("mozilla") || strings.HasPrefix("mozilla", "jakarta commons-httpclient") {
		t.Fatal("mozilla is a library name: libraryAt must not skip it")
	}
}
