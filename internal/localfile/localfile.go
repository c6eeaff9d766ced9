// Package localfile reads the files that Weir's configuration names:
// certificates, keys, token and password files, grok pattern files and
// geo databases. Each is read the same careful way: a regular file only (a
// FIFO would block a reader forever, a device such as /dev/zero would never
// end), never more than a limit that fits its kind, and errors that name the
// path and the problem, never the content, because the content may be a
// secret that the configuration only meant to point at.
package localfile

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// Limits of each kind of file. A file over its limit is refused: it is not
// the kind of file the key expects (a log, a disk image, a device), and
// reading it would only cost memory.
const (
	// Secret is a password, a token or a URI held in a file.
	Secret int64 = 64 << 10
	// PEM is a certificate, a chain of certificates, a bundle of
	// certificate authorities or a private key. The largest public bundle
	// of authorities is about 250 KiB.
	PEM int64 = 4 << 20
	// Patterns is one grok pattern file; Logstash's largest is 20 KiB.
	Patterns int64 = 4 << 20
	// GeoDatabase is a MaxMind database; the City databases are 60 to
	// 130 MiB.
	GeoDatabase int64 = 1 << 30
)

// ErrNotRegular is the error of a path that names something other than a
// regular file (a directory, a FIFO, a device, a socket).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is the error of a file over the limit of its kind.
var ErrTooLarge = errors.New("the file is larger than its limit")

// tooLarge says which limit a file is over; it is ErrTooLarge.
type tooLarge int64

func (e tooLarge) Error() string        { return "the file is larger than " + size(int64(e)) }
func (e tooLarge) Is(target error) bool { return target == ErrTooLarge }

// Read returns the content of the regular file at path, of at most limit
// bytes. A symbolic link to a regular file is followed, as Kubernetes
// mounts secrets through links. Its errors name the path, never the
// content.
func Read(path string, limit int64) ([]byte, error) {
	if path == "" {
		return nil, errors.New("no file named")
	}
	// O_NONBLOCK: opening a FIFO with no writer would otherwise block
	// before the file's type can be checked. It changes nothing for a
	// regular file. The type is checked on the open file, so a file swapped
	// between a check and the open cannot slip through.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, kindOf(st.Mode()))
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%s: %w", path, tooLarge(limit))
	}
	// The size may grow between Stat and the read: the limit holds anyway.
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: %w", path, tooLarge(limit))
	}
	return data, nil
}

// KeyPair reads a certificate and its private key, as tls.LoadX509KeyPair
// does, through Read.
func KeyPair(certFile, keyFile string) (tls.Certificate, error) {
	certPEM, err := Read(certFile, PEM)
	if err != nil {
		return tls.Certificate{}, err
	}
	keyPEM, err := Read(keyFile, PEM)
	if err != nil {
		return tls.Certificate{}, err
	}
	// tls.X509KeyPair's errors describe the PEM blocks, never their bytes.
	return tls.X509KeyPair(certPEM, keyPEM)
}

// unwrapPath drops the path an *os.PathError repeats, since the caller's
// message starts with it.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func kindOf(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	default:
		return "not a plain file"
	}
}

func size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
