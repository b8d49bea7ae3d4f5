// Pinned wrapper module: builds Vitess v19's servers from the Go module proxy (scripts/vitess-build.sh).
module vtpreflight.local/realvitess/v19

go 1.22.11

toolchain go1.22.12

require vitess.io/vitess v0.19.10
