package main

import (
	"os"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestComposeFile reads docker-compose.yml the way `docker compose config`
// would need it to be (there is no Docker engine where the tests run): the
// database and tallyd, tallyd pointed at the database, started once the
// database is healthy, and a health check that calls a command the binary
// really has.
func TestComposeFile(t *testing.T) {
	raw, err := os.ReadFile("../../docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]struct {
			Image       string            `yaml:"image"`
			Build       string            `yaml:"build"`
			Environment map[string]string `yaml:"environment"`
			DependsOn   map[string]struct {
				Condition string `yaml:"condition"`
			} `yaml:"depends_on"`
			Healthcheck struct {
				Test []string `yaml:"test"`
			} `yaml:"healthcheck"`
			Profiles []string `yaml:"profiles"`
			Ports    []string `yaml:"ports"`
			Volumes  []string `yaml:"volumes"`
		} `yaml:"services"`
		Volumes map[string]any `yaml:"volumes"`
	}
	if err := yaml.Unmarshal(raw, &compose); err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	db, tallyd := compose.Services["db"], compose.Services["tallyd"]
	if !strings.HasPrefix(db.Image, "postgres:") || len(db.Healthcheck.Test) == 0 {
		t.Errorf("db service: %+v", db)
	}
	if tallyd.Build != "." || !strings.Contains(tallyd.Environment["DATABASE_URL"], "@db:5432/") {
		t.Errorf("tallyd service must build here and use the db service: %+v", tallyd)
	}
	// Least privilege: served as the runtime role the init script makes,
	// migrated as the database's owner, with the secret on a volume.
	roles, err := os.ReadFile("../../db/compose-roles.sql")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tallyd.Environment["DATABASE_URL"], "postgres://tally_app:") ||
		!strings.Contains(string(roles), "CREATE ROLE tally_app LOGIN PASSWORD 'tally_app' IN ROLE tally_runtime") ||
		!strings.HasPrefix(tallyd.Environment["TALLY_MIGRATE_DATABASE_URL"], "postgres://"+db.Environment["POSTGRES_USER"]+":") ||
		!strings.HasPrefix(tallyd.Environment["TALLY_SECRET_FILE"], "/home/nonroot/") {
		t.Errorf("tallyd must serve as tally_app, migrate as the owner and keep its secret on its volume: %+v", tallyd.Environment)
	}
	if tallyd.DependsOn["db"].Condition != "service_healthy" {
		t.Errorf("tallyd must wait for a healthy database: %+v", tallyd.DependsOn)
	}
	hc := tallyd.Healthcheck.Test
	if len(hc) < 3 || hc[0] != "CMD" || hc[1] != "/tallyd" || hc[2] != "healthcheck" {
		t.Errorf("tallyd health check %v must run /tallyd healthcheck", hc)
	}
	// The HTTPS setup: the same tallyd, only when asked for (a profile),
	// with ACME, https on 443 and plain http on 80 published, the same
	// secret as tallyd, and a health check on plain http.
	secure := compose.Services["tallyd-https"]
	env := secure.Environment
	if !slices.Equal(secure.Profiles, []string{"https"}) || secure.Build != "." ||
		env["DATABASE_URL"] != tallyd.Environment["DATABASE_URL"] || env["TALLY_SECRET_FILE"] != tallyd.Environment["TALLY_SECRET_FILE"] ||
		!slices.Equal(secure.Volumes, []string{"tallyd:/home/nonroot"}) || !strings.Contains(env["TALLY_ACME_DOMAIN"], "TALLY_ACME_DOMAIN") ||
		env["TALLY_ADDR"] != ":443" || env["TALLY_HTTP_ADDR"] != ":80" || !slices.Equal(secure.Ports, []string{"80:80", "443:443"}) {
		t.Errorf("tallyd-https service: %+v", secure)
	}
	if hc := secure.Healthcheck.Test; len(hc) != 5 || hc[1] != "/tallyd" || hc[4] != "http://127.0.0.1:80/readyz" {
		t.Errorf("tallyd-https health check %v must ask plain http, which answers /readyz", hc)
	}
	dockerfile, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"COPY --from=build /out/tallyd /tallyd", `ENTRYPOINT ["/tallyd"]`, `CMD ["serve"]`} {
		if !strings.Contains(string(dockerfile), want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
}

// TestCommands checks the subcommands the Dockerfile and compose file use.
func TestCommands(t *testing.T) {
	var out, errOut strings.Builder
	if code := run([]string{"--help"}, &out, &errOut); code != 0 || !strings.Contains(errOut.String(), "TALLY_DATA_DIR") {
		t.Errorf("--help: %d %s", code, errOut.String())
	}
	if code := run([]string{"healthcheck", "--url", "http://127.0.0.1:1/readyz"}, &out, &errOut); code != 1 {
		t.Errorf("healthcheck of nothing: exit %d, want 1", code)
	}
	if code := run([]string{"dance"}, &out, &errOut); code != 2 {
		t.Errorf("unknown command: exit %d, want 2", code)
	}
	if code := run([]string{"migrate"}, &out, &errOut); code != 2 {
		t.Errorf("migrate without direction: exit %d, want 2", code)
	}
}
