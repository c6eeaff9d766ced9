package installer

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// PublishOptions say what to publish where.
type PublishOptions struct {
	// Dir is a directory repository (served as is by any static HTTP
	// server, or used as file://).
	Dir string
	// Key is the private key file that signs the archive; empty publishes
	// unsigned.
	Key string
	// Binary is the plugin executable; it is stored in the archive under
	// the artifact's name. Files are added beside it (README, LICENSE).
	Binary string
	Files  []string
	OS     string
	Arch   string
}

// Publish packs a plugin binary into {artifact}-{version}-{os}-{arch}.tar.gz
// in the Maven layout under o.Dir, writes its .sha256 and (with a key) its
// .sig, and adds the version to maven-metadata.xml. It returns the
// archive's path. An archive already published is not overwritten:
// published versions are immutable, as in Maven repositories.
func Publish(c Coordinates, o PublishOptions) (string, error) {
	if c.Version == "" {
		return "", errors.New("publish needs group:artifact:version")
	}
	if err := c.Check(true); err != nil {
		return "", fmt.Errorf("publish %s: %w", c, err)
	}
	if err := CheckPlatform(o.OS, o.Arch); err != nil {
		return "", fmt.Errorf("publish %s: %w", c, err)
	}
	archive, err := pack(c.Artifact, o.Binary, o.Files)
	if err != nil {
		return "", err
	}
	dst := filepath.Join(o.Dir, filepath.FromSlash(c.ArchivePath(o.OS, o.Arch)))
	if _, err := os.Stat(dst); err == nil {
		return "", fmt.Errorf("%s is already published for %s/%s (%s): publish a new version", c, o.OS, o.Arch, dst)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", fmt.Errorf("publish: %w", err)
	}
	if err := os.WriteFile(dst, archive, 0o644); err != nil {
		return "", fmt.Errorf("publish: %w", err)
	}
	sum := SumHex(archive) + "  " + filepath.Base(dst) + "\n"
	if err := os.WriteFile(dst+".sha256", []byte(sum), 0o644); err != nil {
		return "", fmt.Errorf("publish: %w", err)
	}
	if o.Key != "" {
		sig, err := SignArchive(o.Key, c, o.OS, o.Arch, archive)
		if err != nil {
			return "", fmt.Errorf("publish: sign: %w", err)
		}
		if err := os.WriteFile(dst+".sig", sig, 0o644); err != nil {
			return "", fmt.Errorf("publish: %w", err)
		}
	}
	metaPath := filepath.Join(o.Dir, filepath.FromSlash(c.MetadataPath()))
	meta := &Metadata{}
	if data, err := os.ReadFile(metaPath); err == nil {
		if meta, err = ParseMetadata(data); err != nil {
			return "", fmt.Errorf("publish: %s: %w", metaPath, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("publish: %w", err)
	}
	meta.Add(c, time.Now())
	data, err := meta.Marshal()
	if err != nil {
		return "", fmt.Errorf("publish: %w", err)
	}
	if err := os.WriteFile(metaPath, data, 0o644); err != nil {
		return "", fmt.Errorf("publish: %w", err)
	}
	return dst, nil
}

// pack builds the tar.gz: the binary as artifact (mode 0755) and the extra
// files by base name.
func pack(artifact, binary string, files []string) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	add := func(name, src string, mode int64) error {
		data, err := os.ReadFile(src)
		if err != nil {
			return fmt.Errorf("pack: %w", err)
		}
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: mode, Size: int64(len(data)), Typeflag: tar.TypeReg, ModTime: time.Now()}); err != nil {
			return fmt.Errorf("pack: %w", err)
		}
		_, err = tw.Write(data)
		return err
	}
	if err := add(artifact, binary, 0o755); err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := add(filepath.Base(f), f, 0o644); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, fmt.Errorf("pack: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("pack: %w", err)
	}
	return buf.Bytes(), nil
}
