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

func (c *Client) setFailures(n int) {
	if c.met == nil {
		return
	}
	c.met.GaugeVec("remote_consecutive_failures", "Failed polls of the dataflow API since it last answered.").WithLabelValues().Set(float64(n))
}

func (c *Client) markAnswer() {
	if c.met == nil {
		return
	}
	c.met.GaugeVec("remote_last_answer_timestamp_seconds", "Unix time of the last poll the dataflow API answered.").WithLabelValues().SetToCurrentTime()
}
