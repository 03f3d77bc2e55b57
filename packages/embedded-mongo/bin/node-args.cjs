// The node flags the CLI is started with by the API (api/src/platform/db.ts) and the benchmarks.
// A 64 MiB young generation: a start decodes every snapshot document it builds indexes from and
// keeps them until the builds are done, so nearly everything the warm-up allocates survives; with
// V8's default 16 MiB semi-spaces it is copied by four times as many scavenges (bench:restart on
// the 100k dataset: ~38 -> ~33 s of CPU until warm). Costs up to ~150 MiB more of young generation.
module.exports = ['--max-semi-space-size=64'];
