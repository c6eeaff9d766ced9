// Package geoip holds the geo-location of IP addresses: the
// MaxmindIpToGeoService controller service, which reads a MaxMind GeoLite2
// or GeoIP2 City or Country database (.mmdb) and picks up a new file
// without a restart, and the IpToGeo processor, which adds the geo fields
// of an address field through the shared LRU cache service. Names and keys
// are LogIsland's (logisland-processor-enrichment and
// logisland-service-ip-to-geo-maxmind).
package geoip

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/oschwald/maxminddb-golang/v2"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/localfile"
)

// ServiceName is the component identifier of the service.
const ServiceName = "pkg.service.iptogeo.maxmind.MaxmindIpToGeoService"

// Capability is what the service provides; IpToGeo's iptogeo.service
// asks for it.
const Capability = "iptogeo"

// Locator is what IpToGeo needs of a geo service. Implementations are safe
// for concurrent use.
type Locator interface {
	// Locate returns the geo information of addr, and false when the
	// database has no entry for it.
	Locate(addr netip.Addr) (Geo, bool, error)
	// Generation changes whenever a new database is loaded, so that
	// cached answers of an older database are not used.
	Generation() uint64
}

// Geo is the information of one address, in LogIsland's field names
// (without prefix). Zero values mean absent.
type Geo struct {
	Continent, ContinentCode string
	Country, CountryISOCode  string
	City, PostalCode         string
	Latitude, Longitude      float64
	HasLocation              bool
	AccuracyRadius           int64
	TimeZone                 string
	Subdivisions             []Subdivision
}

// Subdivision is a region of a country, largest first.
type Subdivision struct{ Name, ISOCode string }

// ServiceSpec declares MaxmindIpToGeoService.
func ServiceSpec() component.Spec {
	return component.ServiceSpec(component.Spec{
		Name: ServiceName,
		Summary: "Locates IP addresses with a MaxMind database file (GeoLite2 or GeoIP2, City or Country, .mmdb). The file is checked " +
			"every database.check.interval ms: when it changes (a new download moved into place), the new database is loaded and used " +
			"without a restart; a file that does not load leaves the current database in use, and the failure is logged.",
		Provides: Capability,
		Properties: []component.Property{
			{Key: "maxmind.database.path", Description: "Local path of the .mmdb file, or stand-in for a small made-up database (for a first try and tests; the service warns that its places are not real).", Example: "/var/lib/weir/GeoLite2-City.mmdb", Validator: component.NonEmpty},
			{Key: "maxmind.database.uri", Description: "The file as a file: URI (LogIsland also accepts hdfs: URIs; Weir reads local files only).",
				Validator: component.NewValidator("file: URI or path", func(s string) error { _, err := uriPath(s); return err })},
			{Key: "locale", Description: "Language of the names (city, country, ...): a language of the database such as en, de, fr, ja, pt-BR; names fall back to English.",
				Default: "en", Validator: component.NonEmpty},
			{Key: "lookup.time", Description: "Accepted for LogIsland jobs; Weir does not add the lookup_micros field (the cache makes it meaningless).",
				Default: "false", Validator: component.Bool},
			{Key: "database.check.interval", Description: "Milliseconds between checks of the file for a new database.",
				Default: "60000", Validator: component.IntRange(100, 86400000)},
		},
	}, newService)
}

// MaxmindIpToGeoConfig is MaxmindIpToGeoService's configuration.
type MaxmindIpToGeoConfig struct {
	Path    string `key:"maxmind.database.path"`
	PathSet bool   `key:"maxmind.database.path,set"`
	URI     string `key:"maxmind.database.uri"`
	URISet  bool   `key:"maxmind.database.uri,set"`
	Locale  string `key:"locale"`
	// Weir does not add LogIsland's lookup_micros field.
	_             struct{}      `key:"lookup.time,ignored"`
	CheckInterval time.Duration `key:"database.check.interval"`
	// file is the database's path, from Path or URI, made by Validate.
	file string
}

// Validate asks for the database in exactly one way, and finds its path.
func (c *MaxmindIpToGeoConfig) Validate() error {
	if c.PathSet == c.URISet {
		return errors.New(`give exactly one of "maxmind.database.path" and "maxmind.database.uri"`)
	}
	c.file = c.Path
	if c.URISet {
		file, err := uriPath(c.URI)
		if err != nil {
			return fmt.Errorf("property %q: %w", "maxmind.database.uri", err)
		}
		c.file = file
	}
	return nil
}

func uriPath(s string) (string, error) {
	if !strings.Contains(s, ":") {
		return s, nil
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "file" {
		return "", fmt.Errorf("%q is not a file: URI", s)
	}
	return u.Path, nil
}

// Service is the running MaxmindIpToGeoService.
type Service struct {
	path   string
	locale string
	log    *slog.Logger

	db  atomic.Pointer[database]
	gen atomic.Uint64

	stop chan struct{}
	done chan struct{}
	once sync.Once
	// removeOnClose is set for the stand-in database's temporary file.
	removeOnClose bool
}

// database is one loaded file.
type database struct {
	r            *maxminddb.Reader
	size         int64
	mtime        time.Time
	databaseType string
}

// StandIn is the value of maxmind.database.path that asks for the stand-in
// database: a small made-up database written at start (StandInNetworks),
// so that the sample job runs before the user has a GeoLite2 file. The
// service says so, at warn level, when it starts.
const StandIn = "stand-in"

func newService(_ context.Context, c *MaxmindIpToGeoConfig, env component.Env) (component.Service, error) {
	if c.Path == StandIn {
		return openStandIn(c.Locale, c.CheckInterval, env.Logger)
	}
	return Open(c.file, c.Locale, c.CheckInterval, env.Logger)
}

// openStandIn writes the stand-in database to a temporary file, removed
// when the service closes, and opens it.
func openStandIn(locale string, every time.Duration, log *slog.Logger) (*Service, error) {
	f, err := os.CreateTemp("", "weir-geo-stand-in-*.mmdb")
	if err != nil {
		return nil, fmt.Errorf("stand-in geo database: %w", err)
	}
	werr := WriteStandIn(f, StandInNetworks)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return nil, err
	}
	s, err := Open(f.Name(), locale, every, log)
	if err != nil {
		os.Remove(f.Name())
		return nil, err
	}
	s.removeOnClose = true
	s.log.Warn("no geo database given: using the STAND-IN database, whose places are made up; set maxmind.database.path (GEOIP_DB in the sample job) to a GeoLite2 or GeoIP2 City file, see docs/processors.md",
		"networks", len(StandInNetworks))
	return s, nil
}

// Open loads the database at path and starts checking it for changes
// every interval. Close stops the check and closes the database.
func Open(path, locale string, interval time.Duration, log *slog.Logger) (*Service, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Service{path: path, locale: locale, log: log, stop: make(chan struct{}), done: make(chan struct{})}
	db, err := load(path)
	if err != nil {
		return nil, err
	}
	s.db.Store(db)
	s.gen.Store(1)
	log.Info("geo database loaded", "path", path, "type", db.databaseType, "built", db.r.Metadata.BuildTime().UTC())
	go s.watch(interval)
	return s, nil
}

func load(path string) (*database, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("geo database: %w", err)
	}
	// The file is read into memory rather than memory-mapped: a new
	// download moved over it, or a truncating copy, must not change what a
	// running lookup reads. localfile refuses what is not a regular file
	// (/dev/zero would fill the memory) and a file over the limit.
	data, err := localfile.Read(path, localfile.GeoDatabase)
	if err != nil {
		return nil, fmt.Errorf("geo database: %w", err)
	}
	r, err := maxminddb.OpenBytes(data)
	if err != nil {
		return nil, fmt.Errorf("geo database %s: %w", path, err)
	}
	t := r.Metadata.DatabaseType
	if !strings.Contains(t, "City") && !strings.Contains(t, "Country") {
		r.Close()
		return nil, fmt.Errorf("geo database %s is of type %q: a City or Country database is needed", path, t)
	}
	return &database{r: r, size: st.Size(), mtime: st.ModTime(), databaseType: t}, nil
}

// watch reloads the database when the file changes, until Close.
func (s *Service) watch(interval time.Duration) {
	defer close(s.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.Reload()
		}
	}
}

// Reload loads the file again if its size or modification time changed,
// and reports whether a new database is now in use. The watcher calls it;
// tests call it to avoid waiting.
func (s *Service) Reload() bool {
	cur := s.db.Load()
	st, err := os.Stat(s.path)
	if err != nil {
		s.log.Warn("geo database file unreadable, keeping the loaded one", "path", s.path, "error", err)
		return false
	}
	if st.Size() == cur.size && st.ModTime().Equal(cur.mtime) {
		return false
	}
	db, err := load(s.path)
	if err != nil {
		s.log.Warn("new geo database does not load, keeping the loaded one", "error", err)
		// Remember the bad file so that it is not reloaded every tick.
		cur.size, cur.mtime = st.Size(), st.ModTime()
		return false
	}
	s.db.Store(db)
	s.gen.Add(1)
	s.log.Info("geo database reloaded", "path", s.path, "type", db.databaseType, "built", db.r.Metadata.BuildTime().UTC())
	return true
}

// Path returns the database file the service reads.
func (s *Service) Path() string { return s.path }

// Generation implements Locator.
func (s *Service) Generation() uint64 { return s.gen.Load() }

// cityRecord is the part of a GeoIP2/GeoLite2 City or Country record that
// IpToGeo uses.
type cityRecord struct {
	City struct {
		Names map[string]string `maxminddb:"names"`
	} `maxminddb:"city"`
	Continent struct {
		Code  string            `maxminddb:"code"`
		Names map[string]string `maxminddb:"names"`
	} `maxminddb:"continent"`
	Country struct {
		ISOCode string            `maxminddb:"iso_code"`
		Names   map[string]string `maxminddb:"names"`
	} `maxminddb:"country"`
	Location struct {
		AccuracyRadius uint16   `maxminddb:"accuracy_radius"`
		Latitude       *float64 `maxminddb:"latitude"`
		Longitude      *float64 `maxminddb:"longitude"`
		TimeZone       string   `maxminddb:"time_zone"`
	} `maxminddb:"location"`
	Postal struct {
		Code string `maxminddb:"code"`
	} `maxminddb:"postal"`
	Subdivisions []struct {
		ISOCode string            `maxminddb:"iso_code"`
		Names   map[string]string `maxminddb:"names"`
	} `maxminddb:"subdivisions"`
}

func (s *Service) name(names map[string]string) string {
	if n, ok := names[s.locale]; ok {
		return n
	}
	return names["en"]
}

// Locate implements Locator.
func (s *Service) Locate(addr netip.Addr) (Geo, bool, error) {
	db := s.db.Load()
	res := db.r.Lookup(addr)
	if err := res.Err(); err != nil {
		return Geo{}, false, fmt.Errorf("geo lookup of %s: %w", addr, err)
	}
	if !res.Found() {
		return Geo{}, false, nil
	}
	var rec cityRecord
	if err := res.Decode(&rec); err != nil {
		return Geo{}, false, fmt.Errorf("geo lookup of %s: %w", addr, err)
	}
	g := Geo{
		Continent: s.name(rec.Continent.Names), ContinentCode: rec.Continent.Code,
		Country: s.name(rec.Country.Names), CountryISOCode: rec.Country.ISOCode,
		City: s.name(rec.City.Names), PostalCode: rec.Postal.Code,
		AccuracyRadius: int64(rec.Location.AccuracyRadius), TimeZone: rec.Location.TimeZone,
	}
	if rec.Location.Latitude != nil && rec.Location.Longitude != nil {
		g.Latitude, g.Longitude, g.HasLocation = *rec.Location.Latitude, *rec.Location.Longitude, true
	}
	for _, sd := range rec.Subdivisions {
		g.Subdivisions = append(g.Subdivisions, Subdivision{Name: s.name(sd.Names), ISOCode: sd.ISOCode})
	}
	return g, true, nil
}

// Close stops the file check. The database stays readable for lookups
// still running (it is in memory), and is released with the service.
func (s *Service) Close(context.Context) error {
	s.once.Do(func() { close(s.stop) })
	<-s.done
	if s.removeOnClose {
		if err := os.Remove(s.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove stand-in geo database: %w", err)
		}
	}
	return nil
}

var (
	_ Locator           = (*Service)(nil)
	_ component.Service = (*Service)(nil)
)
