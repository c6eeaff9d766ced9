// Command composecheck loads compose files the way Docker Compose does
// (compose-go: the compose-spec JSON schema, anchors and merges,
// ${VAR:-default} interpolation, profiles, depends_on conditions) and
// fails on the first problem. Debian's podman-compose (1.0.3) has no
// `config` command, and no compose engine can run the stack where Weir's
// CI runs (its images cannot be pulled), so this is the syntax check of
// deploy/compose.
//
//	go run ./tools/composecheck deploy/compose/compose.yaml   (from tools/composecheck: go run . FILE)
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/compose-spec/compose-go/v2/cli"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: composecheck FILE")
		os.Exit(2)
	}
	if err := check(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "composecheck:", err)
		os.Exit(1)
	}
}

func check(file string) error {
	abs, err := filepath.Abs(file)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	opts, err := cli.NewProjectOptions([]string{abs},
		cli.WithOsEnv,
		cli.WithWorkingDirectory(filepath.Dir(abs)),
		// Every profile, so that services behind one are checked too.
		cli.WithProfiles([]string{"*"}),
	)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	project, err := opts.LoadProject(context.Background())
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	var names []string
	for name, svc := range project.Services {
		names = append(names, fmt.Sprintf("%s (%s)", name, svc.Image))
	}
	sort.Strings(names)
	fmt.Printf("composecheck: %s is valid: project %s, %d services:\n", file, project.Name, len(names))
	for _, n := range names {
		fmt.Println("  " + n)
	}
	return nil
}
