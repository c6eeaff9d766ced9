package status

import (
	"fmt"
	"time"
)

// verdictWindow is how far back the verdict compares lag.
const verdictWindow = time.Minute

// Verdict is the plain-words state of a stream.
type Verdict struct {
	// State is "keeping-up", "falling-behind" or "stopped".
	State string `json:"state"`
	Text  string `json:"text"`
	// LagGrowth is how much the lag grew over the window (negative when it
	// shrank).
	LagGrowth int64 `json:"lagGrowth"`
}

// Judge says whether a stream keeps up. A stream whose consumer failed
// and has committed nothing since is stopped. Otherwise it falls behind
// when its lag now is above zero and larger than at the start of the last
// minute of batches (or of all batches, when the stream is younger); it
// keeps up otherwise. Lag is read per partition: a partition's last known
// lag counts until a later batch reads it again.
func Judge(batches []Batch, stoppedBy string) Verdict {
	if stoppedBy != "" {
		return Verdict{State: "stopped", Text: "stopped: " + stoppedBy}
	}
	if len(batches) == 0 {
		return Verdict{State: "keeping-up", Text: "keeping up: no records yet"}
	}
	last := batches[len(batches)-1]
	from := 0
	for from < len(batches)-1 && last.End.Sub(batches[from].End) > verdictWindow {
		from++
	}
	lagAt := func(upto int) int64 {
		known := map[PartitionLag]int64{}
		for _, b := range batches[:upto+1] {
			for _, p := range b.Lag {
				known[PartitionLag{Topic: p.Topic, Partition: p.Partition}] = p.Lag
			}
		}
		var n int64
		for _, l := range known {
			n += l
		}
		return n
	}
	now, then := lagAt(len(batches)-1), lagAt(from)
	grew := now - then
	if now > 0 && grew > 0 {
		span := last.End.Sub(batches[from].End).Round(time.Second)
		window := "in the last minute"
		if span < verdictWindow-time.Second {
			window = fmt.Sprintf("in the last %s", span)
		}
		return Verdict{State: "falling-behind", LagGrowth: grew,
			Text: fmt.Sprintf("falling behind: lag grew %d records %s", grew, window)}
	}
	if now > 0 {
		return Verdict{State: "keeping-up", LagGrowth: grew, Text: fmt.Sprintf("keeping up: %d records behind, not growing", now)}
	}
	return Verdict{State: "keeping-up", LagGrowth: grew, Text: "keeping up"}
}

// CurrentLag returns each partition's last known lag, sorted by topic and
// partition, with Lagging set when the lag is above zero and grew over the
// verdict window.
func CurrentLag(batches []Batch) []PartitionNow {
	if len(batches) == 0 {
		return nil
	}
	last := batches[len(batches)-1]
	type key struct {
		t string
		p int32
	}
	now := map[key]*PartitionNow{}
	var order []key
	for _, b := range batches {
		inWindow := last.End.Sub(b.End) <= verdictWindow
		for _, p := range b.Lag {
			k := key{p.Topic, p.Partition}
			pn, ok := now[k]
			if !ok {
				pn = &PartitionNow{Topic: p.Topic, Partition: p.Partition, WindowStart: -1}
				now[k] = pn
				order = append(order, k)
			}
			if inWindow && pn.WindowStart < 0 {
				pn.WindowStart = p.Lag
			}
			pn.Lag = p.Lag
			pn.Trend = append(pn.Trend, p.Lag)
		}
	}
	out := make([]PartitionNow, 0, len(order))
	for _, k := range order {
		pn := now[k]
		pn.Lagging = pn.Lag > 0 && pn.WindowStart >= 0 && pn.Lag > pn.WindowStart
		out = append(out, *pn)
	}
	sortLag(out)
	return out
}

// PartitionNow is a partition's lag now and its trend over the batches
// kept.
type PartitionNow struct {
	Topic       string  `json:"topic"`
	Partition   int32   `json:"partition"`
	Lag         int64   `json:"lag"`
	Lagging     bool    `json:"lagging"`
	Trend       []int64 `json:"trend"`
	WindowStart int64   `json:"-"`
}

func sortLag(ps []PartitionNow) {
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && (ps[j].Topic < ps[j-1].Topic || ps[j].Topic == ps[j-1].Topic && ps[j].Partition < ps[j-1].Partition); j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
}
