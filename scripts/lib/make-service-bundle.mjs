// Makes npm start's service bundle (scripts/lib/service-bundle.mjs) and prints its path: scripts/start.mjs runs it in a process of its own.
//
// Why a process of its own: bundling the service with its packages (esbuild's output, the full source map
// cut to lines, the hashes of some 900 files) raised the server's resident high-water mark to 161 MB before
// it served anything, above what it reaches under load (docs/memory.md, round 6).
import { loadEsbuild } from './bundle.mjs';
import { bundleService } from './service-bundle.mjs';

process.stdout.write(`${await bundleService(loadEsbuild)}\n`);
