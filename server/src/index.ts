import cluster from 'node:cluster';
import { ConfigError, loadConfig } from './config.js';
import { buildApp, flushLog } from './app.js';
import { listeningLine, listenProblem, probePort } from './listen.js';
import { serveWorkerMetrics } from './cluster-metrics.js';

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
  // A port taken (another server, an earlier run still up) is a person's mistake: one line, no stack.
  const { host, port } = config;
  const otherPort = (suggested: number) => `start on another port, e.g. PORT=${suggested} npm ${cluster.isPrimary ? 'start' : 'run cluster'}`;
  const cannotListen = (err: unknown) => {
    const problem = listenProblem(err, host, port, otherPort);
    if (problem === null) return;
    console.error(problem);
    process.exit(1);
  };
  // Before the store opens (a cluster's workers share the primary's port: they do not check).
  if (cluster.isPrimary) await probePort(host, port).catch(cannotListen);
  let app;
  try {
    app = await buildApp(config);
  } catch (err) {
    // The store or Redis cannot be reached: say which, without a stack trace.
    console.error(`Cannot start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    // Draining (DRAIN_MS): /api/health answers 503 so a load balancer stops sending new requests,
    // while this process still serves what arrives; then it stops accepting.
    app.ctx.lifecycle.draining = true;
    const { drainMs } = app.ctx.config;
    if (drainMs > 0) {
      app.log.info({ signal, drainMs }, 'draining: health answers 503, requests still served');
      flushLog();
    }
    setTimeout(() => stop(signal), drainMs);
  };
  const stop = (signal: string) => {
    app.log.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    flushLog();
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
  try {
    await app.listen({ port, host });
  } catch (err) {
    // Taken since the check above.
    cannotListen(err);
    throw err;
  }
  // One plain line where to open it, at once: the JSON log is buffered (app.ts) and may be muted.
  // A cluster's workers share the primary's port, and the primary says when each listens.
  if (cluster.isPrimary) console.log(listeningLine(host, app.server.address()));
  else {
    // A cluster's worker answers for itself on an internal port too; the shared port's /metrics merges them.
    // Not fatal: the worker serves without it (and the shared port's /metrics answers for the others).
    await serveWorkerMetrics(app.ctx.metrics, (err) => app.log.error({ err }, 'worker metrics')).then(
      (metricsPort) => console.log(`worker ${process.pid} metrics on http://127.0.0.1:${metricsPort}/metrics`),
      (err: unknown) => console.error(`worker ${process.pid}: its own metrics port could not open (${err instanceof Error ? err.message : String(err)})`),
    );
  }
  flushLog();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
