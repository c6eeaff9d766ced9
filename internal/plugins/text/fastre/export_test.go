package fastre

// ErrUnsupported exposes errUnsupported to the external tests.
var ErrUnsupported = errUnsupported
