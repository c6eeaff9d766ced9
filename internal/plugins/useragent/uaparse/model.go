package uaparse

import "sync"

// modelOnce guards buildModel: the model is built once, by the first caller
// that needs it (ensureModel), and every later caller waits for it.
var modelOnce sync.Once

// ensureModel builds the model unless it is built already. Every exported
// entry point that reads the model calls it first (New, the uncached path of
// AnalyzeCached); after the first call
// it costs one atomic load. The rules themselves read the package variables
// directly, without a check, so that the hot path stays as it was.
func ensureModel() { modelOnce.Do(buildModel) }

// buildModel builds the analyzer's model: the embedded tables
// (tables/*.tsv), the maps and lists the rules read, and the needles of the
// scan. It assigns every package variable whose value is computed rather
// than laid out by the compiler, and must be called once, through
// ensureModel, before any rule runs.
//
// It runs on first use rather than at package initialisation because the
// package is linked into every weir binary: built at init, the model cost
// every weir process about 26 ms and 5.4 MB of allocations, 2.2 MB of
// which stayed live (and so about 4-5 MB of peak RSS, the heap growing to
// twice what is live), even a "weir --help" or a job without
// ParseUserAgent.
//
// The assignments are in the order Go initialised these variables when
// they were initialised at package level (go/types' Info.InitOrder, which
// follows each variable's dependencies and then the file and declaration
// order), followed by what needles.go's init function did. The order
// matters: uaNeedles.add hands out needle identifiers in the order of its
// calls, and most values depend on earlier ones (the tables on
// tableColumns, the needle groups on uaNeedles, uaNeedles.build on every
// needle). A new variable is added here after every variable it reads. An
// initialiser of one line is written here; a longer one is a function
// beside its variable (buildBrandPrefixes beside brandPrefixes), called
// from here. The comments naming a file say where the variables that follow
// are declared.
//
// A malformed embedded table panics (loadTable): a programming error that
// the tests find, which now surfaces at the first New instead of at start-up.
func buildModel() {
	// agent.go
	edgeHTMLToEdge = buildEdgeHTMLToEdge()

	// apps.go
	yahooJapanApps = appMarkerNames("yahooJapanApp")
	electronPlatform = buildElectronPlatform()
	ieShellProducts = appMarkerNames("ieShell")
	ieShellKeys, ieShellEmpty = buildIEShellKeys()
	appendedNoise = buildAppendedNoise()
	appPlatformProducts = buildAppPlatformProducts()
	firefoxNoise = map[string]bool{"kaios": true, "firephp": true, "stumbleupon": true, "owasmime": true}

	// browser.go
	firefoxAddOns = buildFirefoxAddOns()
	platformProducts = buildPlatformProducts()

	// extras.go
	hostTLDs = buildHostTLDs()
	reversedIDRoots = map[string]bool{"com": true, "org": true, "net": true, "nl": true, "de": true, "io": true}

	// language.go
	languageNames = buildLanguageNames()
	countryNames = buildCountryNames()

	// needles.go
	uaNeedles = &needleSet{ids: map[string]needleID{}}

	// analyze.go
	kwParenGecko = uaNeedles.add(") gecko ")
	kwHTTPWord = uaNeedles.add("http")
	kwAtBracket = uaNeedles.add("[at]")
	kwAtWord = uaNeedles.add(" at ")

	// language.go
	kwUnderscoreHash = uaNeedles.add("_#")

	// apps.go
	kwYJApp = uaNeedles.add("yjapp-")
	kwGoogleWv = uaNeedles.add("googlewv/")
	kwFBANFB4A = uaNeedles.add("[fban/fb4a;")
	tikTokNames = buildTikTokNames()
	kwAndroidAt = uaNeedles.add(" android@")
	kwIOSAt = uaNeedles.add(" ios@")
	kwMetaSrWord = uaNeedles.add(" metasr")
	kwOsmeta = uaNeedles.add("osmeta ")
	kwEmbeddedWebBrowserFrom = uaNeedles.add("embedded web browser from:")
	kwViaSuperhumanProxy = uaNeedles.add("via superhumanproxy")

	// broken.go
	kwCPUAndroid = uaNeedles.add("cpu android")
	kwScreenSize = uaNeedles.add("screen size")
	kwFirefoxSlash = uaNeedles.add("firefox/")
	kwSamsungBrowserSlash = uaNeedles.add("samsungbrowser/")
	kwReducedWindows = uaNeedles.add("(windows nt 10.0; win64; x64)")
	kwHuaweiFastApp = uaNeedles.add("com.huawei.fastapp/")
	kwDDGiOS = uaNeedles.add("ddg-ios-")
	kwAtIntigriti = uaNeedles.add("@intigriti.me")
	kwAtHackerOne = uaNeedles.add("@wearehackerone.com")
	kwAtBugcrowd = uaNeedles.add("@bugcrowdninja.com")

	// browser.go
	kwMicroMessenger = uaNeedles.add("micromessenger/")
	kwQQSlash = uaNeedles.add(" qq/")

	// devices.go
	kwVRSafari = uaNeedles.add("vr safari")
	kwMobileVR = uaNeedles.add("mobile vr")
	kwOculus = uaNeedles.add("oculusbrowser")
	kwWatch = uaNeedles.add("watch")
	kwWatchOS = uaNeedles.add("watchos/")
	kwQtCarBrowser = uaNeedles.add("qtcarbrowser")
	kwTeslaSlash = uaNeedles.add("tesla/")
	kwPico = uaNeedles.add("pico")
	kwWPDesktop = uaNeedles.add("wpdesktop")
	kwFamilyHub = uaNeedles.add("family hub")
	kwTVSafari = uaNeedles.add("tv safari")
	kwRaspbian = uaNeedles.add("raspbian")

	// engine.go
	kwBrowserAppleWebKit = uaNeedles.add("browser/applewebkit")

	// extras.go
	hostNeedles = buildHostNeedles()
	kwUIDTag = uaNeedles.add("uid_")

	// hacker.go
	kwXSS = uaNeedles.add("xss")
	kwUnderscore64 = uaNeedles.add("_64")
	kwSSIExec = uaNeedles.add("<!--#exec")
	kwSSIInclude = uaNeedles.add("<!--#include")
	kwHintEscaped = uaNeedles.add(";v=\\\"")
	kwHintQuoted = uaNeedles.add("\";v=\"")

	// kobo.go
	kwKobo = uaNeedles.add("kobo")

	// needles.go
	kwARMSemi = uaNeedles.add("arm;")
	kwAppEngineGoogle = uaNeedles.add("appengine-google")
	kwAndroid = uaNeedles.add("android")
	kwAndroidTV = uaNeedles.add("android tv")
	kwIOSWord = uaNeedles.add("ios")
	kwBingbotHTM = uaNeedles.add("; +http://www.bing.com/bingbot.htm")
	kwCrKey = uaNeedles.add("crkey")
	kwEmptyBraces = uaNeedles.add("{}")
	kwGoogle = uaNeedles.add("google")
	kwGoogleBotHTML = uaNeedles.add("google.com/bot.html")
	kwGoogleDocs = uaNeedles.add("googledocs")
	kwGoogleTV = uaNeedles.add("googletv")
	kwGooglebot = uaNeedles.add("googlebot")
	kwGooglebotCom = uaNeedles.add("googlebot.com")
	kwHTTP = uaNeedles.add("http://")
	kwHTTPS = uaNeedles.add("https://")
	kwHarmonyOS = uaNeedles.add("harmonyos")
	kwHeadlessChrome = uaNeedles.add("headlesschrome")
	kwHisense = uaNeedles.add("hisense")
	kwIMac = uaNeedles.add("imac")
	kwIPad = uaNeedles.add("ipad")
	kwIPhone = uaNeedles.add("iphone")
	kwIPod = uaNeedles.add("ipod")
	kwIPodTouch = uaNeedles.add("ipod touch")
	kwJ2ME = uaNeedles.add("j2me")
	kwKernelSlash = uaNeedles.add("kernel/")
	kwLikeGecko = uaNeedles.add("like gecko")
	kwMAUI = uaNeedles.add("maui")
	kwMIDP = uaNeedles.add("midp")
	kwMacintoshColon = uaNeedles.add("macintosh:")
	kwMacBook = uaNeedles.add("macbook")
	kwMacintosh = uaNeedles.add("macintosh")
	kwMicrosoftOfficeSlash = uaNeedles.add("microsoft office/")
	kwNetCast = uaNeedles.add("netcast")
	kwNetTV = uaNeedles.add("nettv")
	kwHbbTVSlash = uaNeedles.add("hbbtv/")
	kwObigo = uaNeedles.add("obigo")
	kwOperaMini = uaNeedles.add("opera mini")
	kwOperaMobi = uaNeedles.add("opera mobi")
	kwOperaTablet = uaNeedles.add("opera tablet")
	kwPTST = uaNeedles.add("ptst")
	kwPhilips = uaNeedles.add("philips")
	kwRV = uaNeedles.add("rv:")
	kwSafari = uaNeedles.add("safari")
	kwSEMCBrowser = uaNeedles.add("semc-browser")
	kwSmartTV = uaNeedles.add("smarttv")
	kwTabletPC = uaNeedles.add("tablet pc")
	kwTeleca = uaNeedles.add("teleca")
	kwTouch = uaNeedles.add("touch")
	kwUPBrowser = uaNeedles.add("up.browser")
	kwVidaa = uaNeedles.add("vidaa")
	kwViera = uaNeedles.add("viera")
	kwWAPBrowser = uaNeedles.add("wap browser")
	kwWWW = uaNeedles.add("www.")
	kwWeb0S = uaNeedles.add("web0s")
	kwWebAppManager = uaNeedles.add("webappmanager")
	kwX86x64 = uaNeedles.add("x86_64")
	kwI386 = uaNeedles.add("i386")
	kwXbox = uaNeedles.add("xbox")

	// os.go
	cpuHintNeedles = uaNeedles.group([]string{"64", "86", "ppc", "arm", "powerpc"})
	kwIPhoneOS = uaNeedles.add("iphone os")
	kwLinuxAnywhere = uaNeedles.add("linux")
	kwIPadOS = uaNeedles.add("ipad os")
	kwIPhoneOSNoSpace = uaNeedles.add("iphoneos")
	kwMacOSX = uaNeedles.add("mac os x")
	kwMacOSXOneSpace = uaNeedles.add("macos x")
	kwMacOSXNoSpace = uaNeedles.add("macosx")
	kwWindowsNT100 = uaNeedles.add("windows nt 10.0")
	kwMSIE = uaNeedles.add("msie")
	kwQihu = uaNeedles.add("qihu ")
	kwAphoneBrowser = uaNeedles.add("aphone browser")
	kwUCAppleWebKit = uaNeedles.add("uc applewebkit")
	kwCFNetwork = uaNeedles.add("cfnetwork/")
	kwAlamofire = uaNeedles.add("alamofire/")
	kwSamsungBrowser = uaNeedles.add("sungbrowser")
	kwOculusBrowser = uaNeedles.add("oculusbrowser")
	kwMinimo = uaNeedles.add("minimo/")
	kwSpaceIOSSpace = uaNeedles.add(" ios ")
	kwEcosiaSpace = uaNeedles.add("(ecosia ")
	kwXiaomiMiui = uaNeedles.add("xiaomi/miuibrowser/")
	kwWebKitGTK = uaNeedles.add("gtk+/")
	kwGoanna = uaNeedles.add("goanna/")
	kwExoPlayer = uaNeedles.add("exoplayerlib/")
	kwMetaSr = uaNeedles.add("metasr")
	kwOpera = uaNeedles.add("opera")
	kwElectron = uaNeedles.add("electron")
	kwMacOutlook = uaNeedles.add("macoutlook")
	kwPocketBook = uaNeedles.add("pocketbook")
	kwKindle = uaNeedles.add("kindle")
	osSwitchNeedles = []needleID{kwIPhoneOS, kwIPadOS, kwIPhoneOSNoSpace, kwMacOSX, kwMacOSXOneSpace, kwMacOSXNoSpace}
	osSwitchSeconds = buildOSSwitchSeconds()
	osSwitchGroup = newNeedleList(osSwitchNeedles).group
	darwinMajorMacOS = buildDarwinMajorMacOS()
	darwinMajorIOS = buildDarwinMajorIOS()

	// parse.go
	tokenSyntax = buildTokenSyntax()
	versionBytes = buildVersionBytes()
	blockByte = buildBlockByte()

	// robot.go
	headlessBrowsers = map[string]bool{"phantomjs": true, "casperjs": true, "slimerjs": true}
	bigCompanies = map[string]bool{"Google": true, "Baidu": true, "Microsoft": true, "Yahoo": true, "Yandex": true}
	fileExtensions = buildFileExtensions()
	spelledNeedles = uaNeedles.group([]string{"[dot]", "[at]", " at "})
	domainSuffixNeedles = uaNeedles.group([]string{".com", ".net", ".org", ".io"})
	contactNeedles = uaNeedles.group([]string{"contact"})
	nonOwnerDomains = buildNonOwnerDomains()

	// tables.go
	tableColumns = buildTableColumns()

	// agent.go
	browserTokens = buildBrowserTokens()
	browserTokenNeedles = buildBrowserTokenNeedles()
	browserTokenList = newNeedleList(browserTokenNeedles)

	// appledevices.go
	appleDeviceVersions, appleTagMasks = buildAppleDevices()

	// cpuwords.go
	cpuWords = buildCPUWords()
	cpuWordNeedles = buildCPUWordNeedles()

	// hacker.go
	sqlSignatures = attackSignatures("sql")
	scriptSignatures = attackSignatures("script")
	codeSignatures = attackSignatures("code")
	shellSignatures = attackSignatures("shell")
	traversalSignatures = attackSignatures("traversal")
	probeSignatures = attackSignatures("probe")
	typoSignatures = attackSignatures("typo")
	hackerToolkits = buildHackerToolkits()
	sqlNeedles = uaNeedles.group(sqlSignatures)
	scriptNeedles = uaNeedles.group(scriptSignatures)
	codeNeedles = uaNeedles.group(codeSignatures)
	shellNeedles = uaNeedles.group(shellSignatures)
	traversalNeedles = uaNeedles.group(traversalSignatures)
	toolkitNeedles = buildToolkitNeedles()
	probeNeedles = uaNeedles.group(probeSignatures)
	typoNeedles = uaNeedles.group(typoSignatures)

	// language.go
	languages = buildLanguages()

	// namedapps.go
	namedApps = buildNamedApps()
	browserTags = buildBrowserTags()

	// namedrobots.go
	namedRobots = buildNamedRobots()

	// os.go
	windowsNT = systemReleases("windows-nt")
	androidReleases = systemReleases("android-api")
	windowsReleases = systemReleases("windows")
	webOSTVReleases = systemReleases("webos-tv-chromium")
	darwinMacOS = systemReleases("darwin-macos")
	darwinIOS = systemReleases("darwin-ios")
	ubuntuReleases = systemReleases("ubuntu-codename")

	// osversion.go
	firefoxOSReleases = systemReleases("firefox-os-gecko")

	// robot.go
	robotWords = robotWordsOfKind("word", "product")
	robotNeedles = uaNeedles.group(robotWords)
	robotWordIDs = buildRobotWordIDs()
	notRobotWords = robotWordsOfKind("exception")
	camelRobotWords = buildCamelRobotWords()
	browserProducts = buildBrowserProducts()
	robotWordList = newNeedleList(robotWordIDs)

	// tables.go
	brandPrefixes = buildBrandPrefixes()

	// brands.go
	brandSpellings = buildBrandSpellings()
	prefixesByInitial = buildPrefixesByInitial()
	modelCodes = buildModelCodes()
	brandPrefixes = withShapes(brandPrefixes)
	modelClassRules = buildModelClassRules()
	modelPrefixes, modelPrefixLengths = buildModelPrefixes()
	prefixBrandNames = buildPrefixBrandNames()

	// catalog.go
	androidModelsStart = catalogStart(androidModels)
	catalogRowStarts, catalogIndex = buildCatalogIndex(androidModels, androidModelsStart)

	// catalogprefixes.go
	catalogPrefixKeys, catalogPrefixBrands = buildCatalogPrefixes(androidPrefixes)

	// brands.go (continued)
	anonymizers = buildAnonymizers()
	screenTokens = buildScreenTokens()
	productWords = buildProductWords()
	appPlatforms = buildAppPlatforms()

	// device.go
	brandsByInitial = buildBrandsByInitial()
	brandSeconds = buildBrandSeconds()

	// tables.go
	windowsOEMs = tableMap("windows_oem.tsv", tableColumns["windows_oem.tsv"])
	httpLibraries, libraryBrands = buildHTTPLibraries()
	robotAgentNames = tableMap("robot_names.tsv", tableColumns["robot_names.tsv"])
	robotCompanies = buildRobotCompanies()
	otherOS = buildOtherOS()

	// os.go
	otherOSByInitial = buildOtherOSByInitial()

	// tables.go
	linuxDistros = buildLinuxDistros()

	// os.go
	distroNeedles = buildDistroNeedles()
	linuxDistroList = buildLinuxDistroList()
	allDistroRows = buildAllDistroRows()

	// tables.go
	emailApps = tableSet("email_apps.tsv", tableColumns["email_apps.tsv"])
	emailAppKeys = buildEmailAppKeys()
	cpuTags = buildCPUTags()
	cpuTagNeedles = buildCPUTagNeedles()
	cpuTagList = newNeedleList(cpuTagNeedles)
	appSpellings = tableMap("app_spellings.tsv", tableColumns["app_spellings.tsv"])
	robotDeviceNames = tableMap("robot_device_names.tsv", tableColumns["robot_device_names.tsv"])
	domainBrands = tableMap("domain_brands.tsv", tableColumns["domain_brands.tsv"])
	fediverseServers = tableMap("fediverse_servers.tsv", tableColumns["fediverse_servers.tsv"])

	// robot.go
	fediverseNeedles = buildFediverseNeedles()

	// tables.go
	robotEngineNames = tableMap("robot_engine_names.tsv", tableColumns["robot_engine_names.tsv"])
	unixDesktops = buildUnixDesktops()
	amazonDevices = buildAmazonDevices()
	edgeVersions = tableMap("edge_versions.tsv", tableColumns["edge_versions.tsv"])

	// tv.go
	kwKreaTV = uaNeedles.add("kreatv/")
	kwRokuDVP = uaNeedles.add("roku/dvp-")
	kwNSZDash = uaNeedles.add("nsz-")
	kwAppleTV = uaNeedles.add("apple tv")
	kwAppleTV2 = uaNeedles.add("appletv")
	setTopBoxMakers = buildSetTopBoxMakers()
	setTopBoxNeedles = buildSetTopBoxNeedles()
	tvPlatforms = buildTVPlatforms()
	tvPlatformNeedles = buildTVPlatformNeedles()
	buildTVDevices()
	tvVendors = tableMap("tv_vendors.tsv", tableColumns["tv_vendors.tsv"])

	// compactfields.go
	kwTPAPI = uaNeedles.add(";;tpapi")

	// webview.go
	kwFBBracket = uaNeedles.add("[fb")
	kwBuildSlash = uaNeedles.add("build/")
	kwBuildColon = uaNeedles.add("build:")
	kwDashBuild = uaNeedles.add(" - build ")
	webviewApps = tableMap("webview_apps.tsv", tableColumns["webview_apps.tsv"])

	// needles.go's init function: index the needles once all are
	// registered.
	uaNeedles.build()
}
