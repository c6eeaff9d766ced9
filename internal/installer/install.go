package installer

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/pluginrpc"
)

// Options configure the installer.
type Options struct {
	// Home is the Weir home (see Home).
	Home string
	// Repositories are tried in order; the first that lists the artifact
	// is used.
	Repositories []string
	// TrustedKeys verify signatures.
	TrustedKeys []TrustedKey
	// AllowUnsigned installs an artifact without a signature, or whose
	// signature does not verify, with a warning, instead of refusing it.
	AllowUnsigned bool
	// OS and Arch select the build; empty means this machine's.
	OS, Arch string
	// Registry holds the components already known (built in and installed),
	// whose identifiers a plugin may not take.
	Registry *component.Registry
	// Version is Weir's, for the bundled artifacts.
	Version string
	HTTP    *http.Client
	Logger  *slog.Logger
}

func (o *Options) platform() (string, string) {
	goos, goarch := o.OS, o.Arch
	if goos == "" {
		goos = runtime.GOOS
	}
	if goarch == "" {
		goarch = runtime.GOARCH
	}
	return goos, goarch
}

// BundledError says that the coordinates name a component Weir builds in.
type BundledError struct{ Bundled Bundled }

func (e *BundledError) Error() string {
	return fmt.Sprintf("%s is bundled with Weir (components %s): nothing to install", e.Bundled.Coordinates.Key(), strings.Join(e.Bundled.Components, ", "))
}

// Install fetches, verifies, unpacks and records c. The version may be
// empty: the repository's latest release is installed.
func Install(ctx context.Context, o Options, c Coordinates) (*Entry, error) {
	if err := c.Check(false); err != nil {
		return nil, fmt.Errorf("install %s: %w", c, err)
	}
	goos, goarch := o.platform()
	if err := CheckPlatform(goos, goarch); err != nil {
		return nil, fmt.Errorf("install %s: %w", c, err)
	}
	if b, ok := findBundled(c, o.Version); ok {
		return nil, &BundledError{Bundled: b}
	}
	if err := os.MkdirAll(filepath.Join(o.Home, pluginsDir), 0o755); err != nil {
		return nil, fmt.Errorf("weir home: %w", err)
	}
	unlock, err := lockHome(ctx, o.Home, o.Logger)
	if err != nil {
		return nil, err
	}
	defer unlock()
	lock, err := ReadLock(o.Home)
	if err != nil {
		return nil, err
	}
	if i := lock.find(c.Key()); i >= 0 {
		return nil, fmt.Errorf("%s is already installed (version %s): remove it first (weir -r %s)", c.Key(), lock.Plugins[i].Version, c.Key())
	}
	if len(o.Repositories) == 0 {
		return nil, errors.New("no repository: give --repo URL or list repositories in installer.yml")
	}

	// Find the first repository whose metadata lists the artifact; remember
	// why the others did not, to say so if none does.
	var tried []error
	for _, raw := range o.Repositories {
		repo, err := NewRepository(raw, o.HTTP)
		if err != nil {
			return nil, err
		}
		meta, err := fetchMetadata(ctx, repo, c)
		if err != nil {
			tried = append(tried, err)
			continue
		}
		want := c
		if want.Version == "" {
			want.Version = meta.LatestRelease()
		}
		// The repository's version becomes a directory of the plugin home
		// and a part of the URLs: it is checked as the command line's is.
		if err := want.Check(true); err != nil {
			tried = append(tried, fmt.Errorf("%s: maven-metadata.xml of %s: its release: %w", repo, c.Key(), err))
			continue
		}
		if !meta.Has(want.Version) {
			tried = append(tried, fmt.Errorf("%s: unknown version %q of %s (available: %s)", repo, want.Version, c.Key(), strings.Join(meta.Versioning.Versions, ", ")))
			continue
		}
		archive, entry, err := download(ctx, o, repo, want, goos, goarch)
		if err != nil {
			return nil, err // the repository has the version: its failure is the answer
		}
		if err := unpack(ctx, o, lock, archive, entry); err != nil {
			return nil, err
		}
		return entry, nil
	}
	return nil, fmt.Errorf("cannot install %s: %w", c, errors.Join(tried...))
}

func fetchMetadata(ctx context.Context, repo *Repository, c Coordinates) (*Metadata, error) {
	data, err := repo.get(ctx, c.MetadataPath(), maxSmallFile)
	if errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("%s: no artifact %s (%s not found)", repo, c.Key(), c.MetadataPath())
	}
	if err != nil {
		return nil, err
	}
	m, err := ParseMetadata(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", repo, err)
	}
	if err := m.CheckArtifact(c); err != nil {
		return nil, fmt.Errorf("%s: %w", repo, err)
	}
	return m, nil
}

// download fetches the archive and verifies its sha256 and signature.
func download(ctx context.Context, o Options, repo *Repository, c Coordinates, goos, goarch string) ([]byte, *Entry, error) {
	rel := c.ArchivePath(goos, goarch)
	archive, err := repo.Get(ctx, rel)
	if errors.Is(err, ErrNotFound) {
		return nil, nil, fmt.Errorf("%s %s has no build for %s/%s: %w", c, repo, goos, goarch, err)
	}
	if err != nil {
		return nil, nil, err
	}
	sumFile, err := repo.get(ctx, rel+".sha256", maxSmallFile)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: the checksum is required: %w", c, err)
	}
	want, err := parseSumFile(sumFile)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %s.sha256: %w", c, rel, err)
	}
	got := SumHex(archive)
	if got != want {
		return nil, nil, fmt.Errorf("%s: sha256 mismatch: the archive's is %s, %s.sha256 says %s; refused", c, got, filepath.Base(rel), want)
	}
	entry := &Entry{Group: c.Group, Artifact: c.Artifact, Version: c.Version, OS: goos, Arch: goarch,
		Repository: repo.String(), ArchiveSHA256: got}

	sig, err := repo.get(ctx, rel+".sig", maxSmallFile)
	var verr error
	switch {
	case errors.Is(err, ErrNotFound):
		verr = errors.New("it is not signed (no .sig)")
	case err != nil:
		return nil, nil, fmt.Errorf("%s: %w", c, err)
	default:
		entry.SignedBy, verr = verifySignature(signedStatement(c, goos, goarch, got), sig, o.TrustedKeys)
	}
	if verr != nil {
		if !o.AllowUnsigned {
			return nil, nil, fmt.Errorf("%s: signature check failed: %w; refused (--allow-unsigned installs it anyway)", c, verr)
		}
		entry.SignedBy = ""
		o.Logger.Warn("installing an artifact whose signature was not verified, as --allow-unsigned asks", "artifact", c.String(), "reason", verr.Error())
	}
	return archive, entry, nil
}

// unpack extracts the archive into the home, reads the plugin's manifest,
// and records the entry in the lock.
func unpack(ctx context.Context, o Options, lock *Lock, archive []byte, e *Entry) error {
	c := e.Coordinates()
	rel := filepath.FromSlash(c.installRel())
	final := filepath.Join(o.Home, rel)
	if err := confine(o.Home, final); err != nil {
		return fmt.Errorf("install %s: %w", c, err)
	}
	tmp, err := os.MkdirTemp(filepath.Join(o.Home, pluginsDir), ".install-*")
	if err != nil {
		return fmt.Errorf("unpack %s: %w", c, err)
	}
	defer os.RemoveAll(tmp)
	if err := extract(archive, tmp, defaultExtractLimits); err != nil {
		return fmt.Errorf("unpack %s: %w", c, err)
	}
	bin := filepath.Join(tmp, c.Artifact)
	st, err := os.Stat(bin)
	if err != nil || !st.Mode().IsRegular() {
		return fmt.Errorf("unpack %s: the archive has no executable named %q at its root", c, c.Artifact)
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		return fmt.Errorf("unpack %s: %w", c, err)
	}
	e.BinarySHA256 = SumHex(data)

	manifest, err := describe(ctx, bin, e.BinarySHA256, o.Logger)
	if err != nil {
		return fmt.Errorf("%s: %w", c, err)
	}
	if len(manifest.Components) == 0 {
		return fmt.Errorf("%s: the plugin declares no processor", c)
	}
	for _, d := range manifest.Components {
		if _, err := d.Spec(nil); err != nil {
			return fmt.Errorf("%s: %w", c, err)
		}
		if o.Registry != nil {
			if _, taken := o.Registry.Lookup(d.Name); taken {
				return fmt.Errorf("%s: its processor %s has the name of a component Weir already has", c, d.Name)
			}
		}
	}
	e.Components = manifest.Components

	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return fmt.Errorf("install %s: %w", c, err)
	}
	// Checked again right before the deletion and the rename: a directory
	// made meanwhile must not have turned the path into a way out.
	if err := confine(o.Home, final); err != nil {
		return fmt.Errorf("install %s: %w", c, err)
	}
	_ = os.RemoveAll(final) // a leftover of an interrupted remove
	if err := os.Rename(tmp, final); err != nil {
		return fmt.Errorf("install %s: %w", c, err)
	}
	e.Binary = filepath.ToSlash(filepath.Join(rel, c.Artifact))
	e.InstalledAt = time.Now().UTC().Truncate(time.Second)
	lock.Plugins = append(lock.Plugins, *e)
	slices.SortFunc(lock.Plugins, func(a, b Entry) int { return strings.Compare(a.Coordinates().Key(), b.Coordinates().Key()) })
	if err := lock.write(o.Home); err != nil {
		os.RemoveAll(final)
		return err
	}
	return nil
}

// extractLimits bound what an archive may unpack to: each regular file,
// and all of them together. A plugin is one executable and a few text
// files; an archive that unpacks to more is a mistake or a decompression
// bomb, and is refused rather than cut.
type extractLimits struct {
	entry, total int64
}

var defaultExtractLimits = extractLimits{entry: maxDownload, total: 1 << 30}

// extract unpacks a tar.gz into dir. Only regular files and directories
// are taken, no name may leave dir, and an entry over lim.entry or a sum of
// entries over lim.total is an error.
func extract(archive []byte, dir string, lim extractLimits) error {
	zr, err := gzip.NewReader(bytesReader(archive))
	if err != nil {
		return fmt.Errorf("not a gzip archive: %w", err)
	}
	tr := tar.NewReader(zr)
	var total int64
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read archive: %w", err)
		}
		name := filepath.Clean(filepath.FromSlash(h.Name))
		if name == "." || filepath.IsAbs(name) || name == ".." || strings.HasPrefix(name, ".."+string(filepath.Separator)) {
			return fmt.Errorf("archive entry %q leaves its directory", h.Name)
		}
		dst := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			// The header's size is checked first; the copy's bound holds
			// even if the header lies.
			if h.Size > lim.entry {
				return fmt.Errorf("archive entry %q is larger than %d bytes; refused", h.Name, lim.entry)
			}
			if total+h.Size > lim.total {
				return fmt.Errorf("the archive unpacks to more than %d bytes; refused", lim.total)
			}
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, os.FileMode(h.Mode&0o755)|0o600)
			if err != nil {
				return err
			}
			n, err := io.Copy(f, io.LimitReader(tr, lim.entry+1))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
			if n > lim.entry {
				return fmt.Errorf("archive entry %q is larger than %d bytes; refused", h.Name, lim.entry)
			}
			if total += n; total > lim.total {
				return fmt.Errorf("the archive unpacks to more than %d bytes; refused", lim.total)
			}
		default:
			return fmt.Errorf("archive entry %q is not a regular file or directory", h.Name)
		}
	}
}

// describe runs the plugin once to read its manifest.
func describe(ctx context.Context, bin, sum string, logger *slog.Logger) (m pluginrpc.Manifest, err error) {
	r, err := launch(bin, sum, logger)
	if err != nil {
		return m, err
	}
	defer r.kill()
	mf, err := r.rpc.Describe(ctx)
	if err != nil {
		return m, fmt.Errorf("read the plugin's manifest: %w", err)
	}
	return mf, nil
}

// Remove uninstalls group:artifact.
func Remove(ctx context.Context, o Options, c Coordinates) (*Entry, error) {
	if b, ok := findBundled(c, o.Version); ok {
		return nil, fmt.Errorf("%s is bundled with Weir: it cannot be removed", b.Coordinates.Key())
	}
	unlock, err := lockHome(ctx, o.Home, o.Logger)
	if err != nil {
		return nil, err
	}
	defer unlock()
	lock, err := ReadLock(o.Home)
	if err != nil {
		return nil, err
	}
	i := lock.find(c.Key())
	if i < 0 {
		return nil, fmt.Errorf("%s is not installed", c.Key())
	}
	e := lock.Plugins[i]
	// The directory comes from the entry's coordinates, which ReadLock
	// checked, and is confined again: a lock file edited by hand must not
	// make a remove delete anything outside the plugin home.
	dir := filepath.Join(o.Home, filepath.FromSlash(e.Coordinates().installRel()))
	if err := confine(o.Home, dir); err != nil {
		return nil, fmt.Errorf("remove %s: %w", c.Key(), err)
	}
	lock.Plugins = slices.Delete(lock.Plugins, i, i+1)
	// The lock first: a crash between the two leaves an unused directory,
	// which a later install replaces, never a lock entry without its binary.
	if err := lock.write(o.Home); err != nil {
		return nil, err
	}
	if err := os.RemoveAll(dir); err != nil {
		return &e, fmt.Errorf("removed %s from the lock file, but not its files: %w", c.Key(), err)
	}
	return &e, nil
}
