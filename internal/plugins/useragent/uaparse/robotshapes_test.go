package uaparse

import "testing"

// TestRobotShapes checks the structural robot rules of robot.go with user
// agents written for each rule: the shape of the string, not a name, makes
// the client a robot.
func TestRobotShapes(t *testing.T) {
	robot := func(agent string) map[string]string {
		return map[string]string{"DeviceClass": "Robot", "OperatingSystemName": "Cloud", "AgentClass": "Robot",
			"LayoutEngineClass": "Robot", "AgentName": agent}
	}
	checkRuleCases(t, []ruleCase{
		// A compatible section whose product only its page makes a
		// robot: the company's robot, on the engine the string claims.
		{"Mozilla/5.0 (compatible; Fetchwell/2.3; +https://example.tech/crawler)",
			map[string]string{"DeviceClass": "Robot", "DeviceName": "Example Robot", "AgentClass": "Robot", "AgentName": "Fetchwell",
				"LayoutEngineClass": "Robot", "LayoutEngineName": "Mozilla", "LayoutEngineVersion": "5.0"}},
		// A crawler framework where the version would be.
		{"acme/Nutch-1.19", robot("Acme")},
		{"Example Search/Nutch-1.19 (+https://search.example.org/about)", robot("Example Search")},
		// A browser string signed with a maker's site; a name alone is an
		// anonymiser's signature.
		{"Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.1; Trident/6.0) Check by example.com", robot("Check by")},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Render by example.org",
			robot("Render by")},
		{"Mozilla/5.0 (Windows NT 6.2) AppleWebKit/537.22 (KHTML, like Gecko) Chrome/96.0.1054.57 Safari/537.22 anonymized by Example",
			map[string]string{"DeviceClass": "Anonymized", "AgentClass": "Browser", "AgentName": "Chrome"}},
		// A browser string signed with a comment holding only an address:
		// a product before it is the robot; without one the robot is
		// known by its site and the browser stays the agent, as in a
		// compatible section that gives the site's home page.
		{"Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0 ExampleWatch/2.0 (https://example.com/why-we-visit)",
			robot("ExampleWatch")},
		{"Mozilla/5.0 (Android 12; Mobile; rv:120.0) Gecko/120.0 Firefox/120.0 ExampleEye/1.0 (via https://www.example.com/eye/)",
			robot("ExampleEye")},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 (+https://www.example.com)",
			map[string]string{"DeviceClass": "Robot", "DeviceBrand": "Example", "AgentClass": "Browser", "AgentName": "Chrome"}},
		// A product followed by its own address anywhere in the browser
		// string, in a comment of its own or as the next product, signs it
		// too; with only a home page the browser stays the agent.
		{"Mozilla/5.0 (X11; U; Linux i686; en-US; rv:1.9.2.17) Gecko/20110515 Example_Capture/1.0.4 (+http://capture.example.com/) Namoroka/3.6.17",
			map[string]string{"DeviceClass": "Robot", "DeviceBrand": "Example", "AgentClass": "Browser"}},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_14_6) Example-Project (http://example-project.com/) (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
			map[string]string{"DeviceClass": "Robot", "AgentClass": "Browser", "AgentName": "Chrome"}},
		{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36; Example/1.0; +example.ai",
			map[string]string{"DeviceClass": "Robot", "AgentClass": "Browser"}},
		// A comment that introduces a contact: the product it belongs to, or
		// in the platform comment the owner of the address, is the robot.
		{"Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0 ExampleMeasurement/2024 (contact; someone; at; example.edu;)",
			map[string]string{"DeviceClass": "Robot", "AgentClass": "Browser"}},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64; CONTACT; scan@example.net) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
			map[string]string{"DeviceClass": "Robot", "DeviceBrand": "Example", "AgentClass": "Browser", "AgentName": "Chrome"}},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64; Contacts) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
			map[string]string{"DeviceClass": "Desktop", "AgentClass": "Browser"}},
		// A product named by its site (a common top level domain) is the
		// service's, before or inside the browser string; alone it may be
		// an app's.
		{"Mozilla/5.0 (X11; Linux x86_64) Example.io/6.0 AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
			map[string]string{"DeviceClass": "Robot", "DeviceBrand": "Example", "AgentClass": "Browser", "AgentName": "Chrome"}},
		{"example.com/scan Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Chrome/120.0.0.0 Safari/537.36",
			map[string]string{"DeviceClass": "Robot", "DeviceBrand": "Example"}},
		{"examplepod.com/v1.5.x", map[string]string{"DeviceClass": "Unknown", "AgentClass": "Special"}},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Example.js/2.0",
			map[string]string{"DeviceClass": "Desktop", "AgentClass": "Browser"}},
		// An address without a scheme, or an app's tag with an "@", signs
		// nothing.
		{"Mozilla/5.0 (Windows; U; Windows NT 5.1; de; rv:1.9.0.7) Gecko/2009021910 Firefox/3.0.7 (via example.com)",
			map[string]string{"DeviceClass": "Desktop", "AgentClass": "Browser", "AgentName": "Firefox"}},
		{"Mozilla/5.0 (Linux; Android 9; SM-T595) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/101.0.4951.41 Safari/537.36 (Example android@101.0.4951.41)",
			map[string]string{"DeviceClass": "Tablet", "AgentClass": "Browser"}},
		// An address whose path is a robot word: the robot of the site.
		{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 https://example.com/uptime",
			robot("Example")},
		{"Mozilla/5.0 (X11; Linux x86_64; http://example.com/crawler) Gecko/20100101 Firefox/120.0", robot("Example")},
		// A compatible section with nothing but a product and its
		// version; a browser's names its system, and an entry without a
		// version is no clear product.
		{"Mozilla/5.0 (compatible; ExampleAgent/1.0)", robot("ExampleAgent")},
		{"Mozilla/5.0 (compatible; Example-Lead-Finder/2.0; public company research)", robot("Example-Lead-Finder")},
		{"Mozilla/5.0 (compatible; Konqueror/4.0; Linux)", map[string]string{"DeviceClass": "Desktop", "AgentClass": "Browser", "AgentName": "Konqueror"}},
		{"Mozilla/4.0 (compatible; Example Filter Version-3.1-Build-17)", map[string]string{"DeviceClass": "Unknown", "AgentClass": "Browser"}},
		{"Mozilla/5.0 (compatible; MSIE 9.0)", map[string]string{"AgentClass": "Browser", "AgentName": "Internet Explorer"}},
		{"Mozilla/5.0 (Exemplar/2.1)", robot("Exemplar")},
		// Without a version, one product word alone in a compatible
		// section; not an abbreviation.
		{"Mozilla/5.0 (compatible; Exemplar)", robot("Exemplar")},
		{"Mozilla/4.0 (compatible; SV1)", map[string]string{"AgentClass": "Browser"}},
		// Without a comment the product may be an old television's
		// browser.
		{"Mozilla/4.0 WebTV/2.6", map[string]string{"DeviceClass": "Unknown", "AgentName": "WebTV"}},
		// A robot word as one capitalised part of a camel case name, followed
		// by the next part; a word going on in lower case is another word.
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) ExampleProspectingStudio/0.1 Safari/537.36",
			robot("ExampleProspectingStudio")},
		{"ExampleCrawlerTP/1.2", robot("ExampleCrawlerTP")},
		{"BotExample", robot("BotExample")},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 ExampleScouting/1.0",
			map[string]string{"DeviceClass": "Desktop", "AgentClass": "Browser"}},
		// A product in a platform comment followed by its address.
		{"Mozilla/5.0 (Macintosh; Exemplar/1.0; +http://example.com/exemplar/) Gecko/20100101 Firefox/3.0.8", robot("Exemplar")},
		// A phone model with a series named "bot" and a number is no
		// robot; a robot ends its name with the robot word.
		{"Mozilla/5.0 (Linux; Android 8.1; X bot 60) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/80.0.3987.99 Mobile Safari/537.36",
			map[string]string{"DeviceClass": "Phone", "AgentClass": "Browser", "AgentName": "Chrome"}},
		{"Mozilla/5.0 (Linux; Android 6.0; ExampleSpider) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/80.0.3987.99 Mobile Safari/537.36",
			map[string]string{"DeviceClass": "Robot", "AgentClass": "Robot", "AgentName": "ExampleSpider"}},
		// A program that gives its maker's address is a robot, unless it
		// names the phone or desktop system it runs on: then it is that
		// system's app.
		{"ExampleFetch/1.0 (+http://example.org/about)", map[string]string{"DeviceClass": "Robot", "AgentName": "ExampleFetch"}},
		{"ExampleReader/1.6 (Linux; en_US.UTF-8; http://example.org/)",
			map[string]string{"DeviceClass": "Desktop", "OperatingSystemName": "Linux", "AgentClass": "Special", "AgentName": "ExampleReader"}},
		// In a compatible section the browser named stays the agent.
		{"Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; SV1; http://www.example.com/bot.html)",
			map[string]string{"DeviceClass": "Robot", "AgentClass": "Browser", "AgentName": "Internet Explorer"}},
	})
}
