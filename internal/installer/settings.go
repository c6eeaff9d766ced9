package installer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"gopkg.in/yaml.v3"
)

// HomeEnv names the environment variable that sets the Weir home, where
// plugins, the lock file and installer.yml live.
const HomeEnv = "WEIR_HOME"

// Home returns the Weir home: dir if given, else $WEIR_HOME, else
// ~/.weir.
func Home(dir string) string {
	if dir != "" {
		return dir
	}
	if h := os.Getenv(HomeEnv); h != "" {
		return h
	}
	if u, err := os.UserHomeDir(); err == nil {
		return filepath.Join(u, ".weir")
	}
	return ".weir"
}

// Settings are the installer's defaults, read from installer.yml in the
// Weir home:
//
//	repositories:            # tried in order; --repo adds before them
//	  - https://repo.example.com/weir
//	trustedKeys:             # publishers whose signatures are accepted
//	  - name: example
//	    publicKey: 6S6a...=  # base64, as `weir components keygen` prints it
type Settings struct {
	Repositories []string     `yaml:"repositories"`
	TrustedKeys  []TrustedKey `yaml:"trustedKeys"`
}

// settingsFile is the name of the settings file in the Weir home.
const settingsFile = "installer.yml"

// LoadSettings reads installer.yml from home. A missing file means no
// defaults; a malformed one is an error.
func LoadSettings(home string) (Settings, error) {
	var s Settings
	path := filepath.Join(home, settingsFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("read %s: %w", path, err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil && !errors.Is(err, io.EOF) {
		return s, fmt.Errorf("%s: %w", path, err)
	}
	for i := range s.TrustedKeys {
		k := &s.TrustedKeys[i]
		key, err := ParsePublicKey(k.PublicKey)
		if err != nil {
			return s, fmt.Errorf("%s: trustedKeys[%d] (%s): %w", path, i, k.Name, err)
		}
		k.key = key
	}
	return s, nil
}
