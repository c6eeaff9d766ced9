package status

import (
	"runtime/debug"

	"github.com/prometheus/client_golang/prometheus"
)

// ReadBuild describes the running binary: version as given (set at build
// time with -ldflags in cmd/weir), else the module version, else "dev";
// commit as given, else the VCS revision Go stamped into the binary, ""
// when unknown (go run, go test). `weir version`, the status page,
// /api/status and weir_build_info all show what it returns.
func ReadBuild(version, commit string) Build {
	b := Build{Version: version, Commit: commit}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if b.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			b.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && b.Commit == "" {
				b.Commit = s.Value
			}
		}
	}
	if b.Version == "" {
		b.Version = "dev"
	}
	return b
}

// String is the version followed by the commit when known, as `weir
// version` prints it and the status page shows it.
func (b Build) String() string {
	if b.Commit == "" {
		return b.Version
	}
	return b.Version + " (commit " + b.Commit + ")"
}

// RegisterBuildInfo adds weir_build_info{version,commit} 1 to reg.
func RegisterBuildInfo(reg prometheus.Registerer, b Build) error {
	g := prometheus.NewGauge(prometheus.GaugeOpts{Namespace: "weir", Name: "build_info",
		Help:        "Always 1; its labels say which binary runs.",
		ConstLabels: prometheus.Labels{"version": b.Version, "commit": b.Commit}})
	g.Set(1)
	return reg.Register(g)
}
