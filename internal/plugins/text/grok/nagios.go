package grok

import "strings"

// Nagios's log (nagios.log) is Weir's own family of definitions: go-grok
// has none. A line is "[epoch] TYPE: f1;f2;...": a table of the message
// types and their fields writes the definitions, under the names
// Logstash's library gives them (NAGIOSLOGLINE, NAGIOS_SERVICE_ALERT, ...),
// each field with its ECS name and its legacy name.

// dualRef is one field of a Nagios message: the reference in the ECS modes
// and in the legacy mode.
type dualRef struct{ ecs, legacy string }

func both(pattern, ecs, legacy string) dualRef {
	return dualRef{"%{" + pattern + ":" + ecs + "}", "%{" + pattern + ":" + legacy + "}"}
}

var (
	nHost       = both("DATA", "host.hostname", "nagios_hostname")
	nHostLast   = both("GREEDYDATA", "host.hostname", "nagios_hostname")
	nService    = both("DATA", "service.name", "nagios_service")
	nServiceEnd = both("GREEDYDATA", "service.name", "nagios_service")
	nState      = both("DATA", "service.state", "nagios_state")
	nMessage    = both("GREEDYDATA", "message", "nagios_message")
	nComment    = both("GREEDYDATA", "nagios.log.comment", "nagios_comment")
	nNotifier   = both("DATA", "user.name", "nagios_notifyname")
	nContact    = both("DATA", "nagios.log.notification_command", "nagios_contact")
	nHandler    = both("DATA", "nagios.log.event_handler_name", "nagios_event_handler_name")
	nResult     = both("GREEDYDATA", "nagios.log.check_result", "nagios_check_result")
	// The state type is state_type in ECS, statetype in a current state
	// and statelevel in an alert in the legacy names; the attempt an int
	// in ECS, the legacy statecode of a current state any text.
	nStateType  = both("DATA", "nagios.log.state_type", "nagios_statetype")
	nStateLevel = both("DATA", "nagios.log.state_type", "nagios_statelevel")
	nStateCode  = dualRef{"%{INT:nagios.log.attempt:int}", "%{DATA:nagios_statecode}"}
	nAttempt    = dualRef{"%{INT:nagios.log.attempt:int}", "%{NUMBER:nagios_attempt}"}
)

// nagiosMessages are the message types NAGIOSLOGLINE tries, in order: the
// pattern name's suffix, the type as Nagios writes it, and the fields after
// it. An external command (EC_LINE_*) has the command after the type.
var nagiosMessages = []struct {
	name, text string
	fields     []dualRef
}{
	{"CURRENT_SERVICE_STATE", "CURRENT SERVICE STATE", []dualRef{nHost, nService, nState, nStateType, nStateCode, nMessage}},
	{"CURRENT_HOST_STATE", "CURRENT HOST STATE", []dualRef{nHost, nState, nStateType, nStateCode, nMessage}},
	{"SERVICE_NOTIFICATION", "SERVICE NOTIFICATION", []dualRef{nNotifier, nHost, nService, nState, nContact, nMessage}},
	{"HOST_NOTIFICATION", "HOST NOTIFICATION", []dualRef{nNotifier, nHost, nState, nContact, nMessage}},
	{"SERVICE_ALERT", "SERVICE ALERT", []dualRef{nHost, nService, nState, nStateLevel, nAttempt, nMessage}},
	{"HOST_ALERT", "HOST ALERT", []dualRef{nHost, nState, nStateLevel, nAttempt, nMessage}},
	{"SERVICE_FLAPPING_ALERT", "SERVICE FLAPPING ALERT", []dualRef{nHost, nService, nState, nMessage}},
	{"HOST_FLAPPING_ALERT", "HOST FLAPPING ALERT", []dualRef{nHost, nState, nMessage}},
	{"SERVICE_DOWNTIME_ALERT", "SERVICE DOWNTIME ALERT", []dualRef{nHost, nService, nState, nComment}},
	{"HOST_DOWNTIME_ALERT", "HOST DOWNTIME ALERT", []dualRef{nHost, nState, nComment}},
	{"PASSIVE_SERVICE_CHECK", "PASSIVE SERVICE CHECK", []dualRef{nHost, nService, nState, nComment}},
	{"PASSIVE_HOST_CHECK", "PASSIVE HOST CHECK", []dualRef{nHost, nState, nComment}},
	{"SERVICE_EVENT_HANDLER", "SERVICE EVENT HANDLER", []dualRef{nHost, nService, nState, nStateLevel, nHandler}},
	{"HOST_EVENT_HANDLER", "HOST EVENT HANDLER", []dualRef{nHost, nState, nStateLevel, nHandler}},
	{"TIMEPERIOD_TRANSITION", "TIMEPERIOD TRANSITION", []dualRef{nService,
		{"%{NUMBER:nagios.log.period_from:int}", "%{NUMBER:nagios_unknown1}"},
		{"%{NUMBER:nagios.log.period_to:int}", "%{NUMBER:nagios_unknown2}"}}},
	{"EC_LINE_DISABLE_SVC_CHECK", "DISABLE_SVC_CHECK", []dualRef{nHost, nService}},
	{"EC_LINE_ENABLE_SVC_CHECK", "ENABLE_SVC_CHECK", []dualRef{nHost, nService}},
	{"EC_LINE_DISABLE_HOST_CHECK", "DISABLE_HOST_CHECK", []dualRef{nHost}},
	{"EC_LINE_ENABLE_HOST_CHECK", "ENABLE_HOST_CHECK", []dualRef{nHost}},
	{"EC_LINE_PROCESS_HOST_CHECK_RESULT", "PROCESS_HOST_CHECK_RESULT", []dualRef{nHost, nState, nResult}},
	{"EC_LINE_PROCESS_SERVICE_CHECK_RESULT", "PROCESS_SERVICE_CHECK_RESULT", []dualRef{nHost, nService, nState, nResult}},
	{"EC_LINE_SCHEDULE_HOST_DOWNTIME", "SCHEDULE_HOST_DOWNTIME", []dualRef{nHost,
		both("NUMBER", "nagios.log.start_time", "nagios_start_time"),
		both("NUMBER", "nagios.log.end_time", "nagios_end_time"),
		both("NUMBER", "nagios.log.fixed", "nagios_fixed"),
		both("NUMBER", "nagios.log.trigger_id", "nagios_trigger_id"),
		{"%{NUMBER:nagios.log.duration:int}", "%{NUMBER:nagios_duration}"},
		both("DATA", "user.name", "author"),
		both("DATA", "nagios.log.comment", "comment")}},
	{"EC_LINE_DISABLE_HOST_SVC_NOTIFICATIONS", "DISABLE_HOST_SVC_NOTIFICATIONS", []dualRef{nHostLast}},
	{"EC_LINE_ENABLE_HOST_SVC_NOTIFICATIONS", "ENABLE_HOST_SVC_NOTIFICATIONS", []dualRef{nHostLast}},
	{"EC_LINE_DISABLE_HOST_NOTIFICATIONS", "DISABLE_HOST_NOTIFICATIONS", []dualRef{nHostLast}},
	{"EC_LINE_ENABLE_HOST_NOTIFICATIONS", "ENABLE_HOST_NOTIFICATIONS", []dualRef{nHostLast}},
	{"EC_LINE_DISABLE_SVC_NOTIFICATIONS", "DISABLE_SVC_NOTIFICATIONS", []dualRef{nHost, nServiceEnd}},
	{"EC_LINE_ENABLE_SVC_NOTIFICATIONS", "ENABLE_SVC_NOTIFICATIONS", []dualRef{nHost, nServiceEnd}},
}

// nagiosDefinitions returns the Nagios family in one mode.
func nagiosDefinitions(legacy bool) map[string]string {
	pick := func(r dualRef) string {
		if legacy {
			return r.legacy
		}
		return r.ecs
	}
	typ := both("", "nagios.log.type", "nagios_type")
	cmd := both("", "nagios.log.command", "nagios_command")
	defs := map[string]string{
		"NAGIOSTIME":                   pick(dualRef{`\[%{NUMBER:timestamp}\]`, `\[%{NUMBER:nagios_epoch}\]`}),
		"NAGIOS_WARNING":               `Warning:%{SPACE}` + pick(nMessage),
		"NAGIOS_TYPE_EXTERNAL_COMMAND": "EXTERNAL COMMAND",
		// A command with no line pattern of its own, as in Logstash's.
		"NAGIOS_EC_SCHEDULE_SERVICE_DOWNTIME": "SCHEDULE_SERVICE_DOWNTIME",
	}
	alts := []string{"%{NAGIOS_WARNING}"}
	for _, m := range nagiosMessages {
		var b strings.Builder
		if ec, ok := strings.CutPrefix(m.name, "EC_LINE_"); ok {
			defs["NAGIOS_EC_"+ec] = m.text
			b.WriteString(strings.Replace(pick(typ), "%{", "%{NAGIOS_TYPE_EXTERNAL_COMMAND", 1) + ": ")
			b.WriteString(strings.Replace(pick(cmd), "%{", "%{NAGIOS_EC_"+ec, 1) + ";")
		} else {
			defs["NAGIOS_TYPE_"+m.name] = m.text
			b.WriteString(strings.Replace(pick(typ), "%{", "%{NAGIOS_TYPE_"+m.name, 1) + ": ")
		}
		for i, f := range m.fields {
			if i > 0 {
				b.WriteByte(';')
			}
			b.WriteString(pick(f))
		}
		defs["NAGIOS_"+m.name] = b.String()
		alts = append(alts, "%{NAGIOS_"+m.name+"}")
	}
	defs["NAGIOSLOGLINE"] = "%{NAGIOSTIME} (?:" + strings.Join(alts, "|") + ")"
	return defs
}
