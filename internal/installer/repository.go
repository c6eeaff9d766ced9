package installer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/weir-streams/weir/internal/localfile"
)

// ErrNotFound is returned when a repository answers that a file does not
// exist (HTTP 404 or a missing file).
var ErrNotFound = errors.New("not found")

// maxDownload bounds what the installer reads from a repository, so a
// broken or hostile server cannot fill the disk or memory.
const maxDownload = 512 << 20

// maxSmallFile bounds maven-metadata.xml, .sha256 and .sig files, which
// hold a few lines: a repository that answers with more is refused before
// the XML parser or the memory has to bear it.
const maxSmallFile = 4 << 20

// Repository is a Maven-layout repository: a base URL with the https, http
// or file scheme.
type Repository struct {
	base   *url.URL
	client *http.Client
}

// NewRepository parses a repository URL. A bare path is taken as a
// directory.
func NewRepository(raw string, client *http.Client) (*Repository, error) {
	if !strings.Contains(raw, "://") {
		abs, err := filepath.Abs(raw)
		if err != nil {
			return nil, fmt.Errorf("repository %q: %w", raw, err)
		}
		raw = (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("repository URL is not valid")
	}
	switch u.Scheme {
	case "https", "http":
		if u.Host == "" {
			return nil, fmt.Errorf("repository %s has no host", u.Redacted())
		}
	case "file":
		if u.Path == "" {
			return nil, fmt.Errorf("repository %s has no path", u.Redacted())
		}
	default:
		return nil, fmt.Errorf("repository %s: scheme %q is not https, http or file", u.Redacted(), u.Scheme)
	}
	if client == nil {
		client = http.DefaultClient
	}
	return &Repository{base: u, client: client}, nil
}

// String returns the URL without its password.
func (r *Repository) String() string { return r.base.Redacted() }

// Get reads the file at rel, a slash-separated path inside the repository.
// A missing file is ErrNotFound; a repository that cannot be reached gives
// an error that says so.
func (r *Repository) Get(ctx context.Context, rel string) ([]byte, error) {
	return r.get(ctx, rel, maxDownload)
}

// get is Get with a bound on the file's size.
func (r *Repository) get(ctx context.Context, rel string, limit int64) ([]byte, error) {
	if r.base.Scheme == "file" {
		p := filepath.Join(filepath.FromSlash(r.base.Path), filepath.FromSlash(rel))
		if _, err := os.Stat(filepath.FromSlash(r.base.Path)); err != nil {
			return nil, fmt.Errorf("repository %s is not readable: %w", r, err)
		}
		// A regular file of at most maxDownload: a FIFO or a device in a
		// directory repository must not block or fill the installer.
		data, err := localfile.Read(p, limit)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s in %s: %w", rel, r, ErrNotFound)
		}
		if err != nil {
			return nil, fmt.Errorf("read %s in %s: %w", rel, r, err)
		}
		return data, nil
	}
	u := r.base.JoinPath(rel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("request %s: %w", rel, err)
	}
	req.Header.Set("User-Agent", "weir-installer")
	resp, err := r.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // url.Error repeats the URL, which may hold a password
		}
		return nil, fmt.Errorf("repository %s is unreachable: %w", r, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, fmt.Errorf("%s in %s: %w", rel, r, ErrNotFound)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("get %s from %s: HTTP %s", rel, r, resp.Status)
	}
	return readLimited(resp.Body, rel, r, limit)
}

func readLimited(rd io.Reader, rel string, r *Repository, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(rd, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s from %s: %w", rel, r, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s in %s is larger than %d MiB", rel, r, limit>>20)
	}
	return data, nil
}
