package status

import (
	"fmt"
	"html/template"
	"math"
	"strings"
	"time"
)

// The page's charts are SVG drawn here, on the server: the page then needs
// no charting library and no script to be read, the refresh swaps
// server-rendered HTML, and the charts obey the same CSS themes as the text.
// Only numbers and fixed class names go into the markup, and no style
// attribute, so a Content-Security-Policy of 'self' allows it.

const (
	chartW, chartH         = 600, 170
	padL, padR, padT, padB = 52, 12, 12, 24
)

// series is one line of a chart: y values at the times xs.
type series struct {
	Name  string
	Class string // CSS class: s-in, s-out, s-err, s-drop, s-delay, s-proc, s-lag
	Ys    []float64
}

// chart draws series over the times xs (oldest first). limit, when above
// zero, is drawn as a dashed line labelled limitName (the batch interval).
func chart(title, unit string, xs []time.Time, ss []series, limit float64, limitName string) template.HTML {
	var b strings.Builder
	fmt.Fprintf(&b, `<figure class="chart"><figcaption>%s <span class="unit">%s</span></figcaption>`, template.HTMLEscapeString(title), template.HTMLEscapeString(unit))
	fmt.Fprintf(&b, `<svg viewBox="0 0 %d %d" role="img" aria-label="%s">`, chartW, chartH, template.HTMLEscapeString(title))
	top := limit
	for _, s := range ss {
		for _, y := range s.Ys {
			top = math.Max(top, y)
		}
	}
	top = niceCeil(top * 1.1)
	x0, x1 := float64(padL), float64(chartW-padR)
	y0, y1 := float64(chartH-padB), float64(padT)
	yOf := func(v float64) float64 { return y0 - (v/top)*(y0-y1) }
	// Ticks at round numbers: a top of 1 or 5 (times a power of ten) in
	// fifths, a top of 2 in quarters.
	div := 5
	if m := top / math.Pow(10, math.Floor(math.Log10(top))); m > 1.5 && m < 2.5 {
		div = 4
	}
	for i := 0; i <= div; i++ {
		v := top * float64(i) / float64(div)
		y := yOf(v)
		fmt.Fprintf(&b, `<line class="grid" x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f"/>`, x0, y, x1, y)
		fmt.Fprintf(&b, `<text class="tick" x="%.0f" y="%.1f" text-anchor="end">%s</text>`, x0-6, y+4, short(v))
	}
	if len(xs) == 0 {
		fmt.Fprintf(&b, `<text class="empty" x="%d" y="%d" text-anchor="middle">no batches yet</text>`, chartW/2, chartH/2)
	} else {
		first, last := xs[0], xs[len(xs)-1]
		span := last.Sub(first).Seconds()
		xOf := func(t time.Time) float64 {
			if span <= 0 {
				return x1
			}
			return x0 + t.Sub(first).Seconds()/span*(x1-x0)
		}
		fmt.Fprintf(&b, `<text class="tick" x="%.0f" y="%d">−%s</text>`, x0, chartH-6, ago(last.Sub(first)))
		fmt.Fprintf(&b, `<text class="tick" x="%.0f" y="%d" text-anchor="end">last batch</text>`, x1, chartH-6)
		for _, s := range ss {
			var pts strings.Builder
			for i, y := range s.Ys {
				fmt.Fprintf(&pts, "%.1f,%.1f ", xOf(xs[i]), yOf(y))
			}
			if len(s.Ys) == 1 {
				fmt.Fprintf(&b, `<circle class="line %s" cx="%.1f" cy="%.1f" r="2.5"/>`, s.Class, xOf(xs[0]), yOf(s.Ys[0]))
			}
			fmt.Fprintf(&b, `<polyline class="line %s" points="%s"/>`, s.Class, strings.TrimSpace(pts.String()))
		}
	}
	if limit > 0 {
		y := yOf(limit)
		fmt.Fprintf(&b, `<line class="limit" x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f"/>`, x0, y, x1, y)
		fmt.Fprintf(&b, `<text class="limit-label" x="%.0f" y="%.1f" text-anchor="end">%s</text>`, x1-4, y-4, template.HTMLEscapeString(limitName))
	}
	b.WriteString(`</svg><ul class="legend">`)
	for _, s := range ss {
		fmt.Fprintf(&b, `<li><span class="swatch %s"></span>%s</li>`, s.Class, template.HTMLEscapeString(s.Name))
	}
	if limit > 0 {
		fmt.Fprintf(&b, `<li><span class="swatch limit"></span>%s</li>`, template.HTMLEscapeString(limitName))
	}
	b.WriteString(`</ul></figure>`)
	return template.HTML(b.String()) //nolint:gosec // built from numbers and escaped strings only
}

// sparkline draws a small lag trend for a table cell.
func sparkline(vs []int64, lagging bool) template.HTML {
	const w, h = 120, 24
	class := "spark"
	if lagging {
		class += " lagging"
	}
	if len(vs) == 0 {
		return ""
	}
	var top int64 = 1
	for _, v := range vs {
		top = max(top, v)
	}
	var pts strings.Builder
	for i, v := range vs {
		x := float64(w)
		if len(vs) > 1 {
			x = float64(i) / float64(len(vs)-1) * w
		}
		fmt.Fprintf(&pts, "%.1f,%.1f ", x, h-1-float64(v)/float64(top)*(h-2))
	}
	return template.HTML(fmt.Sprintf(`<svg class="%s" viewBox="0 0 %d %d" aria-hidden="true"><polyline points="%s"/></svg>`, class, w, h, strings.TrimSpace(pts.String())))
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten (at least 1).
func niceCeil(v float64) float64 {
	if v <= 1 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

// short writes a number for an axis: 950, 1.2k, 3.4M.
func short(v float64) string {
	switch {
	case v >= 1e6:
		return trimZero(fmt.Sprintf("%.1f", v/1e6)) + "M"
	case v >= 1e3:
		return trimZero(fmt.Sprintf("%.1f", v/1e3)) + "k"
	case v == math.Trunc(v) || v >= 100:
		return fmt.Sprintf("%.0f", v)
	default:
		return trimZero(fmt.Sprintf("%.2f", v))
	}
}

func trimZero(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// ago writes a duration for people: 45s, 3m 20s, 2h 5m, 3d 4h.
func ago(d time.Duration) string {
	d = d.Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm %ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh %dm", int(d.Hours()), int(d.Minutes())%60)
	default:
		return fmt.Sprintf("%dd %dh", int(d.Hours())/24, int(d.Hours())%24)
	}
}
