// Pinned wrapper module: builds Vitess v24's servers from the Go module proxy (scripts/vitess-build.sh).
module vtpreflight.local/realvitess/v24

go 1.26.8

// Copied from vitess.io/vitess v0.24.4's own go.mod: a dependency's exclude lines do not apply to a wrapper.
exclude github.com/DataDog/opentelemetry-mapping-go/pkg/otlp/attributes v0.33.0

require vitess.io/vitess v0.24.4
