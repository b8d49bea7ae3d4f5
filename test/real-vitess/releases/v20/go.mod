// Pinned wrapper module: builds Vitess v20's servers from the Go module proxy (scripts/vitess-build.sh).
module vtpreflight.local/realvitess/v20

go 1.22.12

toolchain go1.22.12

require vitess.io/vitess v0.20.8
