package installer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// confine checks that p lies strictly inside the plugin home (the plugins
// directory of home) before the installer writes, renames or deletes it.
// Coordinates are checked where they enter (Coordinates.Check), and this
// is the second line: whatever a name held, no path outside the plugin
// home is touched. Both the path as written and the path with its existing
// directories' symbolic links resolved must be inside.
func confine(home, p string) error {
	root, err := filepath.Abs(filepath.Join(home, pluginsDir))
	if err != nil {
		return fmt.Errorf("plugin home: %w", err)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return fmt.Errorf("plugin path: %w", err)
	}
	if !strictlyInside(root, abs) {
		return fmt.Errorf("%s is outside the plugin home %s; refused", abs, root)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return fmt.Errorf("plugin home: %w", err)
	}
	// The nearest existing directory above p decides where p really is.
	dir := filepath.Dir(abs)
	for {
		if _, err := os.Lstat(dir); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("plugin path: %w", err)
		}
		dir = filepath.Dir(dir)
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return fmt.Errorf("plugin path: %w", err)
	}
	if realDir != realRoot && !strictlyInside(realRoot, realDir) {
		return fmt.Errorf("%s leads outside the plugin home %s through a symbolic link; refused", abs, root)
	}
	if fi, err := os.Lstat(abs); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link; refused", abs)
	}
	return nil
}

// strictlyInside reports whether p is below root (not root itself).
func strictlyInside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == "." || filepath.IsAbs(rel) {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
