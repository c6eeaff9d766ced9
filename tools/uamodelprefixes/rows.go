package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// eachRow calls fn with the tab-separated columns of every line of the
// table at path that is neither empty nor a comment (a line starting with
// '#'), in file order. what names the table in the errors. A non-nil error
// from fn stops the reading and is returned as it is.
func eachRow(path, what string, fn func(cols []string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open %s: %w", what, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		if err := fn(strings.Split(line, "\t")); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read %s: %w", what, err)
	}
	return nil
}
