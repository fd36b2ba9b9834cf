// `npm start`: the service in a checkout, with the demo churches unless DEMO_DATA says otherwise.
// Run as `node --import tsx scripts/start.ts`: one process (tsx's own CLI would keep a child of its own,
// which outlives npm when npm is stopped), so SIGTERM and SIGINT reach the server whoever sends them.

// The service's own default is no demo data (a production start publishes nothing made up); a checkout wants it.
process.env.DEMO_DATA ??= 'true';
await import('../src/server.ts');
