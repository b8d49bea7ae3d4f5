// Pinned wrapper module: builds Vitess v22's servers from the Go module proxy (scripts/vitess-build.sh).
module vtpreflight.local/realvitess/v22

go 1.24.13

require vitess.io/vitess v0.22.4
