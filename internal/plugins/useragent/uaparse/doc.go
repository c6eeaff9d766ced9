// Package uaparse analyses HTTP User-Agent strings into the attribute set of
// Yauaa (Yet Another UserAgent Analyzer): DeviceClass, DeviceName,
// OperatingSystemNameVersion, LayoutEngineName, AgentName and the other
// names listed by AttributeNames, in the order of the service specification.
//
// # Approach
//
// A user agent is parsed once, left to right, into products ("Name/1.2",
// names may contain spaces) and comment sections ("(...; ...; ...)" split
// on ";" and ","), tolerating the broken forms seen in real traffic:
// missing spaces, missing parentheses, URL encoding. Hand-written rules
// then read those tokens, each concern in its own file:
//
//   - parse.go: the tokeniser (products, comment entries, the bits that
//     answer "is there a product or entry like this" without a loop);
//   - needles.go: one pass over the lower case string, at parse time,
//     records which of several hundred fragments occur (attack signatures,
//     robot words, distribution, television and phone markers); the rules
//     ask it instead of searching the whole string each time;
//   - hacker.go: attacks (SQL, script, template, shell and code injection,
//     path traversal, server side includes), scanner toolkits and forged
//     strings (hand-typed typos, impossible processors), found by their
//     signatures in that pass;
//   - broken.go: what broken, anonymised and reduced user agents still
//     tell: comment-only device strings, lost spaces and padding, the
//     fixed platform of Chrome's reduced user agent, bug bounty addresses;
//   - os.go: the operating system from comment entries and products, with
//     priorities (Windows Phone over Android over Linux);
//   - analyze.go: the order the rule families run in, and the simple
//     flags every family reads; analyzer.go: Analyzer, New and the entry
//     points; cache.go: its sharded LRU cache of answers;
//   - engine.go: the layout engine from its product token;
//   - browser.go: the browser or app from the products and the comment;
//     agent.go: the ordered browser tokens of tables/browsers.tsv and
//     legacy Edge's versions;
//   - device.go: the device (Android models, Apple devices, feature phones,
//     Windows phones, anonymised devices);
//   - tv.go: televisions, set-top boxes and smart TV platforms (HbbTV,
//     webOS, Vidaa, Google TV, Cobalt/Starboard), all in one place;
//   - osversion.go: system versions that browsers freeze or reduce;
//   - extras.go: e-mail, URL, UUID, IE compatibility and language;
//   - fill.go: the attribute array from the findings, with the combined
//     attributes (NameVersion, majors) derived in one place;
//   - decode.go: URL-encoded user agents;
//   - general.go: structural rules that name no product (identifier
//     products, Cocoa app user agents, percent-encoded attacks);
//   - webview.go: Meta's in-app bracket (Facebook*, AgentBuild) and the
//     app inside a web view (WebviewApp*);
//   - tables.go and tables/*.tsv: the facts the rules use, as data, one
//     entry a line with its source;
//   - model.go: buildModel, which reads the tables and builds the maps,
//     lists and needles the rules read, once, on first use rather than at
//     package initialisation (every weir binary links this package);
//   - arena.go: values the rules build ("Samsung " + model) and lower
//     case copies, written to the pooled parse state instead of new
//     strings; attributes.go packs the answer into one allocation;
//   - priority.go and confidence.go: every device, engine and agent
//     finding is written with a confidence, and the highest wins;
//   - normalize.go: names in Yauaa's spelling (capitals, short words and
//     words with digits in upper case) and version majors;
//   - brands.go: device brands from public model naming conventions;
//   - devices.go: game consoles and e-book readers, named after the model
//     the console or reader announces; headsets, watches, cars, voice
//     and home devices, and the device kinds that makers' model codes
//     imply (tablets, watches, Windows OEM codes);
//   - apps.go: applications inside another client's user agent (Electron
//     apps, Microsoft Office, Internet Explorer shells, TV browsers), apps
//     that add their own product to a Chrome, Safari or Firefox user agent
//     or to the system web view, apps on Apple's CFNetwork and Alamofire,
//     mail clients and cloud applications;
//   - language.go: the language of the client from locale entries;
//   - kobo.go: Rakuten Kobo's apps and readers (the Kobo* attributes);
//   - robot.go: crawlers, monitors, HTTP libraries and federated servers,
//     named after the company behind them;
//   - namedrobots.go, namedapps.go, cpuwords.go, appledevices.go: the
//     readers of the tables imported whole from Yauaa's lookups (robots,
//     apps, browser tags, processor tags and Apple devices known by name),
//     with the length masks that turn most names away before a map;
//   - runlines.go: RunLines, one user agent per line in and one JSON
//     object per line out (weir's user-agent command).
//
// The rules capture how user agents are built rather than listing known
// strings, so that unseen user agents of a known shape are analysed well.
// They are our own: no rule file of Yauaa or of any other analyzer is
// copied. The Yauaa test cases (Apache License 2.0, see
// testdata/useragents) are used only to measure accuracy.
//
// Every analysis takes time linear in the length of the string. Strings
// longer than 2048 bytes are not analysed: like Yauaa they are reported as
// a Hacker with the attack vector "Buffer overflow".
//
// # Conventions
//
// Values follow Yauaa's spelling ("Apple iPad", "Samsung SM-G960F",
// "Mac OS", "AppleWebKit", "Windows 7"), with one deliberate difference
// required by the service specification: an attribute that cannot be
// determined is "Unknown". Where Yauaa writes "??" (an unknown version)
// or "Unknown ??" the value is "Unknown"; a combined attribute whose name
// is known and version is not prints Yauaa's "Name ??" ("Android ??").
// Partial versions that Yauaa derives, such as "10.?" for a Mac OS X
// without a version or "8.?" for an iOS release known only from its Darwin
// kernel, and lower bounds such as ">=10" for the frozen "Windows NT 10.0"
// of modern browsers, are kept as they are: they carry information.
//
// The empty user agent is a Hacker in every class and name attribute, with
// attack vector and toolkit Unknown, as Yauaa answers.
//
// # Concurrency and caching
//
// An Analyzer is safe for concurrent use. With Options.CacheSize > 0 it
// keeps that many analysed strings in a sharded LRU cache; a Result is an
// immutable value that shares the cached attribute array. The model all
// Analyzers share is built by the first New (or the first analysis of an
// Analyzer that did not come from New), in about 20 ms; concurrent first
// callers wait for the one building it. IsAttribute, AttributeOf and
// Result.Get read only the attribute names and build nothing.
package uaparse
