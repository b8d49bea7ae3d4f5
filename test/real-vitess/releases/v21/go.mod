// Pinned wrapper module: builds Vitess v21's servers from the Go module proxy (scripts/vitess-build.sh).
module vtpreflight.local/realvitess/v21

go 1.23.10

toolchain go1.23.10

require vitess.io/vitess v0.21.5
