package grok

import (
	"regexp"
	"strings"
)

// Bacula's messages (the director's and daemons' log) are Weir's own family
// of definitions: go-grok has none. Each message is written once, with
// {role} where it holds a value; a role names the pattern that matches the
// value and the field it fills in the ECS modes and in the legacy mode
// ("" captures nothing). The pattern names are Logstash's (BACULA_LOGLINE,
// BACULA_LOG_END_VOLUME, ...). Where Logstash's legacy and ECS texts accept
// different lines, these accept both.

var baculaRoles = map[string]struct{ pattern, ecs, legacy string }{
	"ts":         {"BACULA_TIMESTAMP", "timestamp", "bts"},
	"host":       {"BACULA_HOST", "host.hostname", "hostname"},
	"jobid":      {"INT", "bacula.job.id", "jobid"},
	"jobid0":     {"INT", "bacula.job.id", ""},
	"volume":     {"BACULA_VOLUME", "bacula.volume.name", "volume"},
	"device":     {"BACULA_DEVICE", "bacula.volume.device", "device"},
	"device0":    {"BACULA_DEVICE", "bacula.volume.device", ""},
	"path":       {"BACULA_DEVICEPATH", "bacula.volume.path", ""},
	"maxcap":     {"BACULA_CAPACITY", "bacula.volume.max_capacity", ""},
	"bytes":      {"BACULA_CAPACITY", "bacula.volume.bytes", ""},
	"blocks":     {"BACULA_CAPACITY", "bacula.volume.blocks", ""},
	"when":       {"BACULA_TIMESTAMP", "bacula.timestamp", ""},
	"size":       {"INT", "bacula.volume.size:int", ""},
	"err":        {"GREEDYDATA", "error.message", "berror"},
	"file":       {"DATA", "file.path", ""},
	"client":     {"BACULA_HOST", "bacula.client.name", "client"},
	"job":        {"BACULA_JOB", "bacula.job.name", "job"},
	"elapsed":    {"DATA", "bacula.job.elapsed_time", "elapsed"},
	"other":      {"INT", "bacula.job.other_id", ""},
	"duplicate":  {"INT", "bacula.job.other_id", "duplicate"},
	"runjob":     {"GREEDYDATA", "bacula.job.client_run_before_command", "runjob"},
	"clientaddr": {"IPORHOST", "client.address", ""},
	"clientport": {"POSINT", "client.port:int", ""},
}

// baculaMessages are the messages BACULA_LOGLINE tries, in order.
var baculaMessages = []struct{ name, text string }{
	{"MAX_CAPACITY", `User defined maximum volume capacity {maxcap} exceeded on device "{device}" \({path}\).?`},
	{"END_VOLUME", `End of medium on Volume "{volume}" Bytes={bytes} Blocks={blocks} at {when}.`},
	{"NEW_VOLUME", `Created new Volume "{volume}" in catalog.`},
	{"NEW_LABEL", `Labeled new Volume "{volume}" on (?:file )?device "{device}" \({path}\).`},
	{"WROTE_LABEL", `Wrote label to prelabeled Volume "{volume}" on device "{device0}" \({path}\)`},
	{"NEW_MOUNT", `New volume "{volume}" mounted on device "{device}" \({path}\) at {when}.`},
	{"NOOPEN", `\s*Cannot open %{DATA}: ERR={err}`},
	{"NOOPENDIR", `\s*Could not open directory "?{file}"?: ERR={err}`},
	{"NOSTAT", `\s*Could not stat {file}: ERR={err}`},
	{"NOJOBS", `There are no more Jobs associated with Volume "{volume}". Marking it purged.`},
	{"ALL_RECORDS_PRUNED", `.*?All records pruned from Volume "{volume}"; marking it "Purged"`},
	{"BEGIN_PRUNE_JOBS", `Begin pruning Jobs older than %{INT} month %{INT} days .`},
	{"BEGIN_PRUNE_FILES", `Begin pruning Files.`},
	{"PRUNED_JOBS", `Pruned %{INT} Jobs* for client {client} from catalog.`},
	{"PRUNED_FILES", `Pruned Files from %{INT} Jobs* for client {client} from catalog.`},
	{"ENDPRUNE", `End auto prune.`},
	{"STARTJOB", `Start Backup JobId %{INT}, Job={job}`},
	{"STARTRESTORE", `Start Restore Job {job}`},
	{"USEDEVICE", `Using Device "{device}"`},
	{"DIFF_FS", `\s*%{UNIXPATH} is a different filesystem. Will not descend from %{UNIXPATH} into it.`},
	{"JOBEND", `Job write elapsed time = {elapsed}, Transfer rate = %{NUMBER} (?:K|M|G)? Bytes/second`},
	{"NOPRUNE_JOBS", `No Jobs found to prune.`},
	{"NOPRUNE_FILES", `No Files found to prune.`},
	{"VOLUME_PREVWRITTEN", `Volume "?{volume}"? previously written, moving to end of data.`},
	{"READYAPPEND", `Ready to append to end of Volume "{volume}" size={size}`},
	{"CANCELLING", `Cancelling duplicate JobId={other}.`},
	{"MARKCANCEL", `JobId {jobid0}, Job {job} marked to be canceled.`},
	{"CLIENT_RBJ", `shell command: run ClientRunBeforeJob "{runjob}"`},
	{"VSS", `(?:Generate )?VSS (?:Writer)?`},
	{"MAXSTART", `Fatal [eE]rror: Job canceled because max start delay time exceeded.`},
	{"DUPLICATE", `Fatal [eE]rror: JobId {duplicate} already running. Duplicate job not allowed.`},
	{"NOJOBSTAT", `Fatal [eE]rror: No Job status returned from FD.`},
	{"FATAL_CONN", `Fatal [eE]rror: bsock.c:133 Unable to connect to (?:Client: {client}|Storage daemon) on {clientaddr}:{clientport}. ERR={err}`},
	{"NO_CONNECT", `Warning: bsock.c:127 Could not connect to (?:Client: {client}|Storage daemon) on {clientaddr}:{clientport}. ERR={err}`},
	{"NO_AUTH", `Fatal error: Unable to authenticate with File daemon at "?{clientaddr}(?::{clientport})?"?. Possible causes:`},
	{"NOSUIT", `No prior or suitable Full backup found in catalog. Doing FULL backup.`},
	{"JOB", `(?:Error: )?Bacula %{BACULA_HOST} %{BACULA_VERSION} \(%{BACULA_VERSION}\):`},
	{"NOPRIOR", `No prior Full backup Job record found.`},
}

var baculaRole = regexp.MustCompile(`\{([a-z]\w*)\}`)

// baculaDefinitions returns the Bacula family in one mode.
func baculaDefinitions(legacy bool) map[string]string {
	fill := func(text string) string {
		return baculaRole.ReplaceAllStringFunc(text, func(s string) string {
			r := baculaRoles[s[1:len(s)-1]]
			field := r.ecs
			if legacy {
				field = r.legacy
			}
			if field == "" {
				return "%{" + r.pattern + "}"
			}
			return "%{" + r.pattern + ":" + field + "}"
		})
	}
	defs := map[string]string{
		"BACULA_TIMESTAMP":  `%{MONTHDAY}-%{MONTH}(?:-%{YEAR})? %{HOUR}:%{MINUTE}`,
		"BACULA_HOST":       `%{HOSTNAME}`,
		"BACULA_VOLUME":     `%{USER}`,
		"BACULA_DEVICE":     `%{USER}`,
		"BACULA_DEVICEPATH": `%{UNIXPATH}`,
		"BACULA_CAPACITY":   `%{INT}{1,3}(?:,%{INT}{3})*`,
		"BACULA_VERSION":    `%{USER}`,
		"BACULA_JOB":        `%{USER}`,
	}
	alts := make([]string, len(baculaMessages))
	for i, m := range baculaMessages {
		defs["BACULA_LOG_"+m.name] = fill(m.text)
		alts[i] = "%{BACULA_LOG_" + m.name + "}"
	}
	defs["BACULA_LOG"] = fill(`{ts} {host}(?: JobId {jobid})?:? (?:`) + strings.Join(alts, "|") + ")"
	defs["BACULA_LOGLINE"] = "%{BACULA_LOG}"
	return defs
}
