package installer

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/weir-streams/weir/internal/localfile"
)

// TrustedKey is a publisher's ed25519 public key that Weir accepts
// signatures from.
type TrustedKey struct {
	Name string `yaml:"name"`
	// PublicKey is the base64 of the 32-byte key, as `weir components
	// keygen` prints it.
	PublicKey string `yaml:"publicKey"`
	key       ed25519.PublicKey
}

// ParsePublicKey reads a base64 ed25519 public key. A value that names a
// readable file is read from it (the .pub that keygen writes).
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	if data, err := localfile.Read(s, localfile.Secret); err == nil {
		s = string(data)
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, errors.New("not a base64 ed25519 public key (32 bytes)")
	}
	return ed25519.PublicKey(raw), nil
}

// parsePrivateKey reads a private key file written by GenerateKey.
func parsePrivateKey(path string) (ed25519.PrivateKey, error) {
	data, err := localfile.Read(path, localfile.Secret)
	if err != nil {
		return nil, fmt.Errorf("read private key: %w", err)
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(data)))
	if err != nil || len(raw) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("private key %s: not a base64 ed25519 private key (64 bytes)", path)
	}
	return ed25519.PrivateKey(raw), nil
}

// GenerateKey writes a new key pair: prefix.key (private, mode 0600) and
// prefix.pub (public). It returns the public key in base64, for
// installer.yml's trustedKeys.
func GenerateKey(prefix string) (string, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return "", fmt.Errorf("generate key: %w", err)
	}
	pubText := base64.StdEncoding.EncodeToString(pub)
	if err := writeNew(prefix+".key", []byte(base64.StdEncoding.EncodeToString(priv)+"\n"), 0o600); err != nil {
		return "", err
	}
	if err := writeNew(prefix+".pub", []byte(pubText+"\n"), 0o644); err != nil {
		return "", err
	}
	return pubText, nil
}

// writeNew writes a file that must not exist yet: a key is never
// overwritten by mistake.
func writeNew(path string, data []byte, mode os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}

// Sign returns the detached signature of data, in the .sig format: the
// base64 of the 64-byte ed25519 signature and a newline.
func Sign(priv ed25519.PrivateKey, data []byte) []byte {
	return []byte(base64.StdEncoding.EncodeToString(ed25519.Sign(priv, data)) + "\n")
}

// signatureFormat heads every signed statement; a later format gets
// another name, so a signature of one format never verifies as another.
const signatureFormat = "weir-plugin-signature/2"

// signedStatement is what a .sig signs: the artifact's coordinates, the
// platform of the build and the sha256 of the archive, one per line under
// the format's name. Signing the archive's bytes alone would let a
// repository serve a signed 1.0.0 as 2.0.0, a linux build as another
// platform's, or one artifact's archive as another's.
func signedStatement(c Coordinates, goos, goarch, archiveSHA256 string) []byte {
	return []byte(signatureFormat + "\ncoordinates " + c.String() + "\nplatform " + goos + "/" + goarch + "\nsha256 " + archiveSHA256 + "\n")
}

// SignArchive signs archive, the build of c for goos/goarch, with the
// private key at keyPath and returns the .sig content.
func SignArchive(keyPath string, c Coordinates, goos, goarch string, archive []byte) ([]byte, error) {
	if err := c.Check(true); err != nil {
		return nil, err
	}
	if err := CheckPlatform(goos, goarch); err != nil {
		return nil, err
	}
	priv, err := parsePrivateKey(keyPath)
	if err != nil {
		return nil, err
	}
	return Sign(priv, signedStatement(c, goos, goarch, SumHex(archive))), nil
}

// SignFile writes file.sig next to file, an archive named as in a
// repository ({artifact}-{version}-{os}-{arch}.tar.gz) that is the build of
// c: the platform is read from the name.
func SignFile(keyPath string, c Coordinates, file string) error {
	goos, goarch, err := platformOf(c, filepath.Base(file))
	if err != nil {
		return err
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("read %s: %w", file, err)
	}
	sig, err := SignArchive(keyPath, c, goos, goarch, data)
	if err != nil {
		return err
	}
	return os.WriteFile(file+".sig", sig, 0o644)
}

// platformOf reads os and arch from an archive's name,
// {artifact}-{version}-{os}-{arch}.tar.gz.
func platformOf(c Coordinates, name string) (string, string, error) {
	prefix := c.Artifact + "-" + c.Version + "-"
	rest, ok := strings.CutPrefix(name, prefix)
	if ok {
		rest, ok = strings.CutSuffix(rest, ".tar.gz")
	}
	goos, goarch, found := strings.Cut(rest, "-")
	if !ok || !found || CheckPlatform(goos, goarch) != nil {
		return "", "", fmt.Errorf("%s is not named %sOS-ARCH.tar.gz, as the archive of %s is in a repository", name, prefix, c)
	}
	return goos, goarch, nil
}

// verifySignature checks a .sig file's content against the trusted keys
// and returns the name of the key that signed data, a signedStatement.
func verifySignature(data, sig []byte, keys []TrustedKey) (string, error) {
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(sig)))
	if err != nil || len(raw) != ed25519.SignatureSize {
		return "", errors.New("the signature file is not a base64 ed25519 signature")
	}
	if len(keys) == 0 {
		return "", errors.New("no trusted key is configured (trustedKeys in installer.yml, or --trusted-key)")
	}
	for _, k := range keys {
		if ed25519.Verify(k.key, data, raw) {
			return k.Name, nil
		}
	}
	return "", fmt.Errorf("the signature does not verify against any of the %d trusted keys", len(keys))
}

// SumHex returns the hex sha256 of data.
func SumHex(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// parseSumFile reads a .sha256 file: the hex digest, optionally followed by
// the file name as sha256sum writes it.
func parseSumFile(data []byte) (string, error) {
	fields := strings.Fields(string(data))
	if len(fields) == 0 || len(fields[0]) != 64 {
		return "", errors.New("the .sha256 file does not start with a hex sha256")
	}
	if _, err := hex.DecodeString(fields[0]); err != nil {
		return "", errors.New("the .sha256 file does not start with a hex sha256")
	}
	return strings.ToLower(fields[0]), nil
}
