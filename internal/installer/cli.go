package installer

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/weir-streams/weir/internal/component"
)

// shortFlags map the spec's options to installer commands.
var shortFlags = map[string]string{"-i": "install", "-l": "list", "-r": "remove"}

// subcommands are the `weir components` subcommands the installer serves.
var subcommands = []string{"install", "list", "remove", "keygen", "sign", "publish"}

// IsCommand reports whether args (without the program name) are an
// installer command: the spec's -i, -l, -r options anywhere, or `components`
// followed by one of the installer's subcommands.
func IsCommand(args []string) bool {
	if len(args) >= 2 && args[0] == "components" && slices.Contains(subcommands, args[1]) {
		return true
	}
	for _, a := range args {
		if _, ok := shortFlags[a]; ok {
			return true
		}
	}
	return false
}

// CommandUsage is the help text of the installer commands.
const CommandUsage = `Component installer:
  weir -i GROUP:ARTIFACT[:VERSION]    install a plugin (same as weir components install)
  weir -l                             list installed plugins and the LogIsland artifacts built in, with
                                      their components (weir components list; weir components: every key)
  weir -r GROUP:ARTIFACT              remove a plugin (weir components remove)
  weir components keygen PREFIX       make a signing key pair: PREFIX.key (secret) and PREFIX.pub
  weir components sign --key K GROUP:ARTIFACT:VERSION ARCHIVE
                                      write ARCHIVE.sig, the signature of the archive as the build
                                      of these coordinates for the os/arch its name ends with
  weir components publish --repo DIR [--key K] [--file F]... GROUP:ARTIFACT:VERSION BINARY
                                      pack, checksum, sign and list a plugin in a directory repository
Flags of install, list and remove:
  --home DIR           Weir home: plugins, plugins.lock.json, installer.yml (default $WEIR_HOME or ~/.weir)
  --repo URL           repository (https://, http://, file:// or a directory); repeatable, tried
                       before installer.yml's repositories
  --trusted-key KEY    base64 ed25519 public key, or a .pub file; repeatable, added to installer.yml's trustedKeys
  --allow-unsigned     install even if the artifact is not signed by a trusted key (a warning is logged)
  --os, --arch         the build to install (default this machine's)
`

// Env is what the commands need from main.
type Env struct {
	Stdout, Stderr io.Writer
	Logger         *slog.Logger
	// Registry holds the built-in components (and the installed ones).
	Registry *component.Registry
	// Version is Weir's version, for the bundled artifacts.
	Version string
}

// Command runs an installer command and returns the exit code: 0 done, 1
// refused or failed, 2 bad usage.
func Command(ctx context.Context, args []string, env Env) int {
	cmd, rest := splitCommand(args)
	fs := flag.NewFlagSet("weir components "+cmd, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() { fmt.Fprint(env.Stderr, CommandUsage) }
	home := fs.String("home", "", "Weir home")
	var repos, keys, files multiFlag
	fs.Var(&repos, "repo", "repository URL (repeatable)")
	fs.Var(&keys, "trusted-key", "trusted public key (repeatable)")
	fs.Var(&files, "file", "publish: a file to add to the archive (repeatable)")
	allowUnsigned := fs.Bool("allow-unsigned", false, "install without a verified signature")
	goos := fs.String("os", runtime.GOOS, "operating system of the build")
	goarch := fs.String("arch", runtime.GOARCH, "architecture of the build")
	key := fs.String("key", "", "private key file for sign and publish")
	pos, err := parseInterspersed(fs, rest)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintln(env.Stderr, "weir:", err)
		return 1
	}
	usage := func(want string) int {
		fmt.Fprintf(env.Stderr, "weir components %s: want %s\n\n%s", cmd, want, CommandUsage)
		return 2
	}
	o := Options{Home: Home(*home), Registry: env.Registry, Version: env.Version, Logger: env.Logger,
		AllowUnsigned: *allowUnsigned, OS: *goos, Arch: *goarch}

	if env.Registry != nil && (cmd == "install" || cmd == "list") {
		// Installed plugins' names are taken too; a refused plugin is
		// worth a warning.
		if err := RegisterInstalled(env.Registry, o.Home, env.Logger); err != nil {
			env.Logger.Warn("installed plugins", "error", err)
		}
	}

	switch cmd {
	case "install":
		if len(pos) != 1 {
			return usage("GROUP:ARTIFACT[:VERSION]")
		}
		c, err := ParseCoordinates(pos[0], false)
		if err != nil {
			return fail(err)
		}
		set, err := LoadSettings(o.Home)
		if err != nil {
			return fail(err)
		}
		o.Repositories = append(append([]string(nil), repos...), set.Repositories...)
		o.TrustedKeys = set.TrustedKeys
		for i, k := range keys {
			pk, err := ParsePublicKey(k)
			if err != nil {
				return fail(fmt.Errorf("--trusted-key %d: %w", i+1, err))
			}
			o.TrustedKeys = append(o.TrustedKeys, TrustedKey{Name: fmt.Sprintf("--trusted-key %d", i+1), key: pk})
		}
		e, err := Install(ctx, o, c)
		var be *BundledError
		if errors.As(err, &be) {
			fmt.Fprintln(env.Stdout, be.Error())
			return 0
		}
		if err != nil {
			return fail(err)
		}
		signed := "signed by " + e.SignedBy
		if e.SignedBy == "" {
			signed = "NOT signed by a trusted key"
		}
		fmt.Fprintf(env.Stdout, "installed %s (%s/%s, %s) from %s\n  components: %s\n", e.Coordinates(), e.OS, e.Arch, signed, e.Repository, componentNames(e))
		return 0
	case "list":
		if len(pos) != 0 {
			return usage("no argument")
		}
		if err := List(env.Stdout, o); err != nil {
			return fail(err)
		}
		return 0
	case "remove":
		if len(pos) != 1 {
			return usage("GROUP:ARTIFACT")
		}
		c, err := ParseCoordinates(pos[0], false)
		if err != nil {
			return fail(err)
		}
		e, err := Remove(ctx, o, c)
		if err != nil {
			return fail(err)
		}
		fmt.Fprintf(env.Stdout, "removed %s\n", e.Coordinates())
		return 0
	case "keygen":
		if len(pos) != 1 {
			return usage("PREFIX")
		}
		pub, err := GenerateKey(pos[0])
		if err != nil {
			return fail(err)
		}
		fmt.Fprintf(env.Stdout, "wrote %s.key (keep it secret) and %s.pub\npublic key: %s\n", pos[0], pos[0], pub)
		return 0
	case "sign":
		if *key == "" || len(pos) < 2 {
			return usage("--key KEY GROUP:ARTIFACT:VERSION ARCHIVE...")
		}
		c, err := ParseCoordinates(pos[0], true)
		if err != nil {
			return fail(err)
		}
		for _, f := range pos[1:] {
			if err := SignFile(*key, c, f); err != nil {
				return fail(err)
			}
			fmt.Fprintf(env.Stdout, "wrote %s.sig\n", f)
		}
		return 0
	case "publish":
		if len(repos) != 1 || len(pos) != 2 {
			return usage("--repo DIR GROUP:ARTIFACT:VERSION BINARY")
		}
		c, err := ParseCoordinates(pos[0], true)
		if err != nil {
			return fail(err)
		}
		dst, err := Publish(c, PublishOptions{Dir: repos[0], Key: *key, Binary: pos[1], Files: files, OS: *goos, Arch: *goarch})
		if err != nil {
			return fail(err)
		}
		fmt.Fprintf(env.Stdout, "published %s\n", dst)
		return 0
	}
	fmt.Fprintf(env.Stderr, "weir: unknown components command %q\n\n%s", cmd, CommandUsage)
	return 2
}

// splitCommand takes the command out of args: -i X / -l / -r X anywhere
// (their value becomes the first positional argument), or components CMD.
func splitCommand(args []string) (string, []string) {
	if len(args) >= 2 && args[0] == "components" {
		return args[1], args[2:]
	}
	for i, a := range args {
		if cmd, ok := shortFlags[a]; ok {
			rest := append([]string(nil), args[:i]...)
			if cmd != "list" && i+1 < len(args) {
				return cmd, append(append([]string{args[i+1]}, rest...), args[i+2:]...)
			}
			return cmd, append(rest, args[i+1:]...)
		}
	}
	return "", args
}

// parseInterspersed parses flags before, between and after positional
// arguments, so that `weir -i G:A:V --repo URL` reads as users type it.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func componentNames(e *Entry) string {
	var names []string
	for _, d := range e.Components {
		names = append(names, d.Name)
	}
	return strings.Join(names, ", ")
}

// List writes the installed plugins, then the bundled artifacts.
func List(w io.Writer, o Options) error {
	lock, err := ReadLock(o.Home)
	if err != nil {
		return err
	}
	if len(lock.Plugins) == 0 {
		fmt.Fprintf(w, "no plugin installed in %s\n", o.Home)
	}
	for i := range lock.Plugins {
		e := &lock.Plugins[i]
		signed := "signed by " + e.SignedBy
		if e.SignedBy == "" {
			signed = "not signed by a trusted key"
		}
		fmt.Fprintf(w, "%s  %s/%s  %s\n", e.Coordinates(), e.OS, e.Arch, signed)
		fmt.Fprintf(w, "  path:       %s\n", filepath.Join(o.Home, filepath.FromSlash(e.Binary)))
		fmt.Fprintf(w, "  sha256:     %s\n", e.BinarySHA256)
		fmt.Fprintf(w, "  from:       %s\n", e.Repository)
		fmt.Fprintf(w, "  components: %s\n", componentNames(e))
	}
	for _, b := range BundledArtifacts(o.Version) {
		var have, missing []string
		for _, n := range b.Components {
			if o.Registry == nil {
				have = append(have, n)
			} else if _, ok := o.Registry.Lookup(n); ok {
				have = append(have, n)
			} else {
				missing = append(missing, n)
			}
		}
		fmt.Fprintf(w, "%s  bundled\n", b.Coordinates)
		if len(have) > 0 {
			fmt.Fprintf(w, "  components: %s\n", strings.Join(have, ", "))
		}
		if len(missing) > 0 {
			fmt.Fprintf(w, "  not in this build: %s\n", strings.Join(missing, ", "))
		}
	}
	return nil
}
