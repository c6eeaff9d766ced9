package dataflow

// ServiceRefs returns the names of the services that c names in its
// properties declared with a ServiceRef, in the order of its spec's
// properties. Check has made sure that each names a service of the
// dataflow that provides what the property asks for.
func (c Configured) ServiceRefs() []string {
	var out []string
	given := c.Config.Values()
	for _, prop := range c.Spec.Properties {
		if name, ok := given[prop.Key]; ok && prop.ServiceRef != "" {
			out = append(out, name)
		}
	}
	return out
}
