// Every test process gets its own in-memory embedded database unless DATABASE_URL points at PostgreSQL
// (then test/harness.ts gives each file its own schema). Tests never reach the internet: upstreams are
// played by servers the tests start on 127.0.0.1.
process.env.SERVICE_DATA_DIR ??= "memory://";
process.env.SERVICE_DNS_SERVERS ??= "127.0.0.1:9";
