package uaparse

// conf is the confidence a rule has in a value it writes. Every write of an
// attribute finding goes through a slot with a confidence, and the highest
// confidence wins, as Yauaa's matchers carry a confidence per attribute: a
// more specific reading of the string beats a more generic one, whatever
// order the two rules run in. TestNoAnswerDecidedByOrder checks that no
// answer is decided by the order of the rules (a value written over a
// different one of the same confidence, slot.tied) on the golden inputs and
// on the broken and cut forms of the DEV user agents.
//
// The scale, from the vaguest reading to the surest, has room between its
// levels: a rule that refines the reading of another rule of the same level
// writes one above it (confRobot+1 for a mobile robot after a robot,
// confRobot+2 for an imitator, confRobot+3 for the imitator's own name), so
// the refinement wins whichever runs first. Where two rules of one level can
// disagree, TestNoAnswerDecidedByOrder finds them.
type conf int8

const (
	// confGuess is a default inferred from weak hints (a class implied by
	// a "Mobile" token, a name taken from the first product).
	confGuess conf = 10
	// confGeneric is what a component's own token says about it: the
	// layout engine from its product (AppleWebKit, Gecko, Trident), the
	// browser from the last browser token, the device from the system
	// (a Windows machine is a Desktop, an iPhone a Phone).
	confGeneric conf = 20
	// confProduct is a product that refines a generic reading: Blink from
	// a Chrome 28+ token beside AppleWebKit, a browser built on Chromium
	// named beside its Chrome token, a device model named in the comment.
	confProduct conf = 30
	// confFamily is a device or client family recognised by its own
	// marker: a television or set-top box, a game console, an e-reader,
	// a watch, an app inside a browser or web view.
	confFamily conf = 40
	// confRobot is the reading that the whole client is a robot, a cloud
	// application or an imitator of one; it outranks what the browser,
	// engine and device tokens say, since robots send those to pass as
	// browsers.
	confRobot conf = 50
	// confRepair is a repair of a broken or rewritten string (lost
	// spaces, glued versions): it knows the rules above misread it.
	confRepair conf = 70
	// confStructure is a reading of the string's structure that is sure of
	// itself: a robot word in a product name, a library naming pattern, a
	// contact address in the comment.
	confStructure conf = 80
	// confTable is a fact looked up in a data table (tables/*.tsv): a
	// named robot, HTTP library, OEM code or app.
	confTable conf = 90
)

// reportTies calls tied with the name of each finding whose value the
// order of the rules decided: written over a different value of the same
// confidence (slot.tied).
func (s *state) reportTies(tied func(finding string)) {
	for _, f := range [...]struct {
		name string
		tied bool
	}{
		{"DeviceClass", s.devClass.tied}, {"DeviceBrand", s.devBrand.tied}, {"DeviceName", s.devName.tied},
		{"DeviceCpu", s.devCPU.tied}, {"DeviceVersion", s.devVersion.tied}, {"DeviceFirmwareVersion", s.devFirmware.tied},
		{"LayoutEngineClass", s.engClass.tied}, {"LayoutEngineName", s.engName.tied}, {"LayoutEngineVersion", s.engVersion.tied},
		{"LayoutEngineBuild", s.engBuild.tied}, {"AgentClass", s.agClass.tied}, {"AgentName", s.agName.tied},
		{"AgentVersion", s.agVersion.tied}, {"OperatingSystemVersionBuild", s.osBuild.tied}, {"AgentBuild", s.agBuild.tied},
		{"WebviewAppName", s.wvName.tied}, {"WebviewAppVersion", s.wvVersion.tied},
	} {
		if f.tied {
			tied(f.name)
		}
	}
}
