package sdk

import (
	"io"
	"log/slog"
	"strings"
)

// newHclogHandler returns a slog handler that writes JSON lines in the form
// go-plugin's host reads from a plugin's standard error (@level, @message,
// @timestamp, then the attributes), so a plugin's log lines reach Weir's log
// with their level instead of as raw text.
func newHclogHandler(w io.Writer) slog.Handler {
	return slog.NewJSONHandler(w, &slog.HandlerOptions{
		Level: slog.LevelInfo,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) > 0 {
				return a
			}
			switch a.Key {
			case slog.LevelKey:
				return slog.String("@level", strings.ToLower(a.Value.String()))
			case slog.MessageKey:
				a.Key = "@message"
			case slog.TimeKey:
				a.Key = "@timestamp"
			}
			return a
		},
	})
}
