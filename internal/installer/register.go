package installer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/pluginrpc"
)

// RegisterInstalled registers the processors of every plugin in home's
// lock file into reg, so that job files, `weir validate` and `weir
// components` know them. Each binary is hashed again: a binary that
// differs from its lock entry (or is missing) still has its processors
// registered, but refused: validation reports it at the processor's path
// and the stream does not start. The returned error lists the plugins that
// could not be registered at all (a name taken by another component) or
// were refused; the others are registered.
func RegisterInstalled(reg *component.Registry, home string, logger *slog.Logger) error {
	lock, err := ReadLock(home)
	if err != nil {
		return err
	}
	var errs []error
	for i := range lock.Plugins {
		e := &lock.Plugins[i]
		bin := filepath.Join(home, filepath.FromSlash(e.Binary))
		refused := checkBinary(bin, e.BinarySHA256)
		if refused != nil {
			refused = fmt.Errorf("plugin %s refused: %w", e.Coordinates(), refused)
			errs = append(errs, refused)
		}
		for _, d := range e.Components {
			if _, taken := reg.Lookup(d.Name); taken {
				errs = append(errs, fmt.Errorf("plugin %s: processor %s is not registered: a component of that name exists", e.Coordinates(), d.Name))
				continue
			}
			spec, err := d.Spec(newPluginProcessor(bin, e.BinarySHA256, d.Name, refused, logger))
			if err != nil {
				errs = append(errs, fmt.Errorf("plugin %s: %w", e.Coordinates(), err))
				continue
			}
			spec.Summary = fmt.Sprintf("%s (plugin %s)", spec.Summary, e.Coordinates())
			if _, dup := spec.Property(pluginrpc.TimeoutKey); dup {
				errs = append(errs, fmt.Errorf("plugin %s: processor %s declares %q, which is Weir's own key", e.Coordinates(), d.Name, pluginrpc.TimeoutKey))
				continue
			}
			spec.Properties = append(spec.Properties, timeoutProperty)
			switch {
			case refused != nil:
				spec.Check = func(component.Config) error { return refused }
			case d.HasCheck:
				spec.Check = checkInPlugin(bin, e.BinarySHA256, d.Name, logger)
			}
			reg.Register(spec)
		}
	}
	return errors.Join(errs...)
}

// checkBinary hashes the installed binary and compares it with the lock.
func checkBinary(bin, want string) error {
	data, err := os.ReadFile(bin)
	if err != nil {
		return fmt.Errorf("its binary cannot be read (reinstall it): %w", err)
	}
	if got := SumHex(data); got != want {
		return fmt.Errorf("its binary %s changed since it was installed (sha256 %s, the lock file says %s); reinstall it", bin, got, want)
	}
	return nil
}

// startBudget bounds the start of a plugin when a pipeline is built: the
// chain's constructor takes no context.
const startBudget = 30 * time.Second

// newPluginProcessor returns the NewProcessor of one plugin processor.
func newPluginProcessor(bin, sum, name string, refused error, logger *slog.Logger) func(component.Config, component.Env) (component.Processor, error) {
	return func(conf component.Config, env component.Env) (component.Processor, error) {
		if refused != nil {
			return nil, refused
		}
		values, timeout, err := pluginValues(conf)
		if err != nil {
			return nil, err
		}
		lg := env.Logger
		if lg == nil {
			lg = logger
		}
		ctx, cancel := context.WithTimeout(context.Background(), startBudget)
		defer cancel()
		req := pluginrpc.ConfigureRequest{Component: name, Name: env.Name, Stream: env.Stream, Values: values}
		return newProcessor(ctx, bin, sum, req, timeout, lg.With("plugin", filepath.Base(bin)))
	}
}

// timeoutProperty is the key Weir adds to every plugin processor.
var timeoutProperty = component.Property{
	Key: pluginrpc.TimeoutKey,
	Description: "Weir's own key for every plugin processor: how long one batch call may take, in milliseconds. " +
		"A plugin that does not answer in time is taken for hung: the batch fails into error records, " +
		"as when the plugin crashes, and the plugin is killed and restarted with backoff.",
	Default:   pluginrpc.DefaultTimeout,
	Validator: component.IntRange(1, 24*3600*1000),
}

// pluginValues splits the values given to a plugin processor: Weir's own
// key, the call timeout, and every other key, declared or free-form, which
// the plugin decodes itself. Weir reads no key of the plugin's.
func pluginValues(conf component.Config) (map[string]string, time.Duration, error) {
	values := conf.Given()
	ms, set := values[pluginrpc.TimeoutKey]
	if !set {
		ms = pluginrpc.DefaultTimeout
	}
	delete(values, pluginrpc.TimeoutKey)
	n, err := strconv.ParseInt(strings.TrimSpace(ms), 10, 64)
	if err != nil {
		// timeoutProperty's validator accepted it: a spec that disagrees.
		return nil, 0, fmt.Errorf("property %q: %q is not an integer", pluginrpc.TimeoutKey, ms)
	}
	return values, time.Duration(n) * time.Millisecond, nil
}

// checkInPlugin returns the Check of a plugin processor that has its own:
// it starts the plugin, asks it to check the values and stops it, once per
// distinct set of values (checkMemo). Each problem the plugin reports is one
// error of the joined result, so that `weir validate` lists each at the
// processor's path with the others.
func checkInPlugin(bin, sum, name string, logger *slog.Logger) func(component.Config) error {
	memo := newCheckMemo(func(values map[string]string) ([]string, error) {
		r, err := launch(bin, sum, logger)
		if err != nil {
			return nil, err
		}
		defer r.kill()
		ctx, cancel := context.WithTimeout(context.Background(), startBudget)
		defer cancel()
		return r.rpc.Check(ctx, pluginrpc.ConfigureRequest{Component: name, Values: values})
	})
	return func(conf component.Config) error {
		values, _, err := pluginValues(conf)
		if err != nil {
			return err
		}
		probs, err := memo.problems(values)
		if err != nil {
			return fmt.Errorf("cannot run the plugin's own check: %w", err)
		}
		errs := make([]error, len(probs))
		for i, p := range probs {
			errs[i] = errors.New(p)
		}
		return errors.Join(errs...)
	}
}
