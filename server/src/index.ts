import { ConfigError, loadConfig } from './config.js';
import { buildApp } from './app.js';

/** Production entry: build, listen, and shut down cleanly on SIGTERM/SIGINT. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const app = await buildApp(config);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    // Stop accepting, let in-flight requests finish, then close the database (onClose hooks).
    const force = setTimeout(() => {
      app.log.error('shutdown took over 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    // Keep-alive connections busy at the signal become idle once their response is sent; close them
    // then, or the server would wait for clients to hang up.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
    sweep.unref();
    app.close().then(() => process.exit(0), (err: unknown) => {
      app.log.error({ err }, 'error while shutting down');
      process.exit(1);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
