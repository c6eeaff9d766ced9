package remote

// The client's metrics, all under weir_remote_*:
//
//	remote_polls_total{result}           polls by result (applied, refused, unchanged, not_modified, not_found, error)
//	remote_applies_total{kind,result}    changes submitted, by kind (start, dataflow, pipeline, validate) and result (applied, refused)
//	remote_pushes_total{result}          snapshot pushes by result (ok, error)
//	remote_consecutive_failures          failed polls since the last answer
//	remote_last_answer_timestamp_seconds Unix time of the last poll the server answered

func (c *Client) count(name string, labels ...string) {
	if c.met == nil {
		return
	}
	switch name {
	case "remote_polls_total":
		c.met.CounterVec(name, "Polls of the dataflow API by result: applied, refused, unchanged, not_modified, not_found, error.", "result").WithLabelValues(labels...).Inc()
	case "remote_applies_total":
		c.met.CounterVec(name, "Changes received from the dataflow API and submitted, by kind (start, dataflow, pipeline, validate) and result (applied, refused).", "kind", "result").WithLabelValues(labels...).Inc()
	case "remote_pushes_total":
		c.met.CounterVec(name, "Snapshot pushes to the dataflow API by result: ok, error.", "result").WithLabelValues(labels...).Inc()
	}
}

func (c *Client) gauge(name string, v float64) {
	if c.met == nil {
		return
	}
	c.met.GaugeVec(name, "Failed polls of the dataflow API since it last answered.").WithLabelValues().Set(v)
}

func (c *Client) gaugeNow(name string) {
	if c.met == nil {
		return
	}
	c.met.GaugeVec(name, "Unix time of the last poll the dataflow API answered.").WithLabelValues().SetToCurrentTime()
}
