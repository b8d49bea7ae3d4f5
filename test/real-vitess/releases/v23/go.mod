// Pinned wrapper module: builds Vitess v23's servers from the Go module proxy (scripts/vitess-build.sh).
module vtpreflight.local/realvitess/v23

go 1.25.7

// Copied from vitess.io/vitess v0.23.3's own go.mod: a dependency's exclude lines do not apply to a wrapper.
exclude github.com/DataDog/opentelemetry-mapping-go/pkg/otlp/attributes v0.33.0

require vitess.io/vitess v0.23.3
