// Entry point of `npm start`: config, services, app, listen; closes cleanly on SIGTERM/SIGINT.
import { loadConfig, ConfigError } from './config.ts';
import { createLogger } from './http/logger.ts';
import { createServices } from './services.ts';
import { createApp } from './app.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const services = await createServices(config, logger);
  const server = createApp(services).listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ url: `http://${config.host}:${port}`, docs: `http://${config.host}:${port}/docs` }, 'listening');
  });
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    server.close(() => {
      services.close().finally(() => process.exit(0));
    });
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
