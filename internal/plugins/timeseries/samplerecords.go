// Package timeseries holds SampleRecords, LogIsland's processor that
// reduces a series of (time, value) records to fewer points.
package timeseries

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// SampleRecordsName is the component identifier, LogIsland's.
const SampleRecordsName = "pkg.processor.SampleRecords"

// ErrSampling is the error type of a record that cannot be sampled.
const ErrSampling = "sampling_error"

// FieldSampled marks the records SampleRecords writes.
const FieldSampled = "is_sampled"

// Sampling algorithms.
const (
	algoNone    = "none"
	algoLTTB    = "lttb"
	algoAverage = "average"
	algoFirst   = "first_item"
)

// SampleRecordsSpec declares SampleRecords.
func SampleRecordsSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: SampleRecordsName,
		Summary: "Replaces each batch (one partition's records of one micro-batch, in offset order) by a sample of its (time, value) " +
			"points: records holding only the type, the time field, the value field and is_sampled = true. average: one point per " +
			"bucket of sampling.parameter records, the first one's time and the buckets' mean value (rounded for integer fields); " +
			"first_item: the first record of each bucket; lttb: sampling.parameter points chosen by Largest-Triangle-Three-Buckets; " +
			"none: every point. A record without a numeric value or an integer time becomes an error record (" + ErrSampling + ") " +
			"with the reason instead of being sampled.",
		Properties: []component.Property{
			{Key: "record.value.field", Description: "The numeric field to sample.", Default: record.FieldValue, Validator: component.NonEmpty},
			{Key: "record.time.field", Description: "The time field (epoch milliseconds).", Default: record.FieldTime, Validator: component.NonEmpty},
			{Key: "sampling.algorithm", Description: "none, average, first_item or lttb. LogIsland also lists min_max and mode_median, which it does not implement; Weir refuses them.",
				Required: true, Example: algoAverage, Validator: component.Enum(algoNone, algoAverage, algoFirst, algoLTTB)},
			{Key: "sampling.parameter", Description: "Records per bucket (average, first_item; 0 or more than the batch: buckets of one), or points kept (lttb, at least 3).",
				Required: true, Example: "10", Validator: component.IntRange(0, 1<<31)},
		},
	}, newSampleRecords)
}

// SampleRecordsConfig is SampleRecords' configuration.
type SampleRecordsConfig struct {
	ValueField string `key:"record.value.field"`
	TimeField  string `key:"record.time.field"`
	Algorithm  string `key:"sampling.algorithm"`
	Parameter  int    `key:"sampling.parameter"`
}

// Validate refuses an LTTB sample of fewer than three points: the
// algorithm always keeps the first and the last.
func (c *SampleRecordsConfig) Validate() error {
	if c.Algorithm == algoLTTB && c.Parameter <= 2 {
		return fmt.Errorf("property %q: lttb keeps at least 3 points, %d asks for fewer", "sampling.parameter", c.Parameter)
	}
	return nil
}

func newSampleRecords(c *SampleRecordsConfig, _ component.Env) (component.Processor, error) {
	return &SampleRecords{valueF: c.ValueField, timeF: c.TimeField, algo: c.Algorithm, param: c.Parameter}, nil
}

// SampleRecords is the processor; safe for concurrent use.
type SampleRecords struct {
	valueF, timeF string
	algo          string
	param         int
}

type point struct {
	r     *record.Record
	t     int64
	v     float64
	isInt bool
}

// Process samples the batch.
func (p *SampleRecords) Process(_ context.Context, b *component.Batch) error {
	var pts []point
	var out []*record.Record
	for _, r := range b.Records {
		pt, err := p.point(r)
		if err != nil {
			r.AddError(ErrSampling, err.Error())
			out = append(out, r)
			continue
		}
		pts = append(pts, pt)
	}
	var sampled []*record.Record
	switch p.algo {
	case algoNone:
		for _, pt := range pts {
			sampled = append(sampled, p.emit(pt, pt.v))
		}
	case algoFirst, algoAverage:
		size := p.param
		if size <= 0 || size > len(pts) {
			size = 1
		}
		for i := 0; i < len(pts); i += size {
			bucket := pts[i:min(i+size, len(pts))]
			v := bucket[0].v
			if p.algo == algoAverage {
				sum := 0.0
				for _, pt := range bucket {
					sum += pt.v
				}
				v = sum / float64(len(bucket))
			}
			sampled = append(sampled, p.emit(bucket[0], v))
		}
	case algoLTTB:
		for _, i := range lttb(pts, p.param) {
			sampled = append(sampled, p.emit(pts[i], pts[i].v))
		}
	}
	b.Records = append(sampled, out...)
	return nil
}

func (p *SampleRecords) point(r *record.Record) (point, error) {
	tv, ok := r.Get(p.timeF)
	if !ok {
		return point{}, fmt.Errorf("no time field %q", p.timeF)
	}
	t, ok := tv.AsInt()
	if !ok {
		n, err := strconv.ParseInt(strings.TrimSpace(tv.Text()), 10, 64)
		if err != nil {
			return point{}, fmt.Errorf("time field %q holds %s, not epoch milliseconds", p.timeF, tv.String())
		}
		t = n
	}
	vv, ok := r.Get(p.valueF)
	if !ok {
		return point{}, fmt.Errorf("no value field %q", p.valueF)
	}
	if n, ok := vv.AsInt(); ok {
		return point{r: r, t: t, v: float64(n), isInt: true}, nil
	}
	if f, ok := vv.AsFloat(); ok && !math.IsNaN(f) {
		return point{r: r, t: t, v: f}, nil
	}
	return point{}, fmt.Errorf("value field %q holds %s, not a number", p.valueF, vv.String())
}

// emit builds a sampled point: a record of the source's id, type and
// origin holding only the time, the value and is_sampled.
func (p *SampleRecords) emit(pt point, v float64) *record.Record {
	r := record.New(pt.r.ID, pt.r.Type, pt.r.CreationDate)
	r.Origin = pt.r.Origin
	r.Set(p.timeF, record.IntValue(pt.t))
	if pt.isInt {
		r.Set(p.valueF, record.IntValue(int64(math.Round(v))))
	} else {
		r.Set(p.valueF, record.FloatValue(v))
	}
	r.Set(FieldSampled, record.BoolValue(true))
	return r
}

// lttb returns the indexes of the points Largest-Triangle-Three-Buckets
// keeps: the first, the last, and in each of threshold-2 buckets between
// them the point that makes the largest triangle with the point kept
// before and the mean of the next bucket. Fewer points than threshold are
// all kept. (LogIsland's implementation loses the first point to an
// off-by-one; Weir keeps it, as the algorithm does.)
func lttb(pts []point, threshold int) []int {
	n := len(pts)
	if n <= threshold || n <= 2 {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	out := []int{0}
	every := float64(n-2) / float64(threshold-2)
	a := 0
	for i := 0; i < threshold-2; i++ {
		start := int(math.Floor(float64(i+1)*every)) + 1
		end := min(int(math.Floor(float64(i+2)*every))+1, n)
		var avgX, avgY float64
		for j := start; j < end; j++ {
			avgX += float64(pts[j].t)
			avgY += pts[j].v
		}
		if end > start {
			avgX /= float64(end - start)
			avgY /= float64(end - start)
		}
		from := int(math.Floor(float64(i)*every)) + 1
		to := int(math.Floor(float64(i+1)*every)) + 1
		ax, ay := float64(pts[a].t), pts[a].v
		best, bestArea := from, -1.0
		for j := from; j < to; j++ {
			area := math.Abs((ax-avgX)*(pts[j].v-ay)-(ax-float64(pts[j].t))*(avgY-ay)) * 0.5
			if area > bestArea {
				best, bestArea = j, area
			}
		}
		out = append(out, best)
		a = best
	}
	return append(out, n-1)
}
