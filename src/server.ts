// Entry point of the service (`npm start` runs it bundled, through scripts/start.mjs): config, services, app, listen; closes cleanly on SIGTERM/SIGINT.

import { createApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { limitHeapGrowth } from './heap-growth.ts';
import { createHttpServer } from './http/http-server.ts';
import { createLogger } from './http/logger.ts';
import { createServices } from './services.ts';

async function main(): Promise<void> {
  limitHeapGrowth();
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const services = await createServices(config, logger);
  const server = createHttpServer(createApp(services), config, logger).listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ url: `http://${config.host}:${port}`, docs: `http://${config.host}:${port}/docs` }, 'listening');
  });
  server.on('error', (error: NodeJS.ErrnoException) => {
    // In use or privileged: the port's fault; anything else (no such address here): the host's.
    const variable = error.code === 'EADDRINUSE' || error.code === 'EACCES' ? 'PORT' : 'HOST';
    exitWithSettingError(
      new ConfigError(variable, `cannot listen on ${config.host}:${config.port} (${error.code ?? error.message})`, { cause: error }),
    );
  });
  let stopping = false;
  const shutdown = (signal: string) => {
    // A second signal (a second Ctrl-C, systemd's SIGTERM after an INT) must not close things twice.
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server.close(() => {
      services.close().finally(() => process.exit(0));
    });
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/** A bad setting is one line on stderr naming the variable, no stack: the operator fixes the setting, not the code. */
function exitWithSettingError(error: ConfigError): never {
  process.stderr.write(`Configuration error: ${error.message.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(1);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) exitWithSettingError(error);
  console.error(error);
  process.exit(1);
});
