import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** React, the router, TanStack Query and zustand: what the entry itself runs (socket.io waits for the shells). */
const VENDOR = /[\\/]node_modules[\\/](?:react|react-dom|scheduler|react-router|react-router-dom|@tanstack[\\/](?:react-query|query-core)|zustand)[\\/]/;

const COMPRESSIBLE = /\.(?:js|css|html|svg|json|txt)$/;

/**
 * Writes `file.br` (brotli, best) and `file.gz` (gzip, best) beside every text file of 1 KiB or more
 * in the build, once, so the server sends them as they are (@fastify/static's `preCompressed`)
 * instead of compressing each asset on every request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved: (config) => { outDir = path.resolve(config.root, config.build.outDir); },
    closeBundle() {
      const walk = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const body = fs.readFileSync(file);
        if (body.length < 1024) continue;
        fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
      }
    },
  };
}

export default defineConfig(({ command }) => {
  // A build is a production build, also when a test runner starts it: vitest's NODE_ENV=test (inherited
  // when the e2e global setup runs scripts/build.mjs) would otherwise give React's development build,
  // about 2.5 times the size, and keep the query devtools' chunk (Vite reads NODE_ENV after this file).
  if (command === 'build' && process.env.NODE_ENV === 'test') process.env.NODE_ENV = 'production';
  return {
    plugins: [react(), precompress()],
    resolve: { alias: { '@auction/shared': fileURLToPath(new URL('../shared/src/index.ts', import.meta.url)) } },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      sourcemap: true,
      // .vite/manifest.json: which chunks the entry and each portal need (e2e/bundles.test.ts reads it).
      manifest: true,
      rolldownOptions: {
        // TypeBox's builders have no side effects: a schema the client never reads is dropped, and most of
        // TypeBox with it (the client imports only constants and types from @auction/shared).
        treeshake: { manualPureFunctions: ['Type'] },
        output: {
          // The libraries every page runs, in a chunk of their own: a deploy that changes only the app's
          // code leaves its name, and the browser's copy, as they were.
          codeSplitting: { groups: [{ name: 'vendor', test: VENDOR }] },
        },
      },
    },
    server: {
      port: 5173,
      // `npm run dev`: the API, the photos (/media, outside /api) and the live channel come from the server on :3000.
      proxy: { '/api': 'http://127.0.0.1:3000', '/media': 'http://127.0.0.1:3000', '/socket.io': { target: 'http://127.0.0.1:3000', ws: true } },
    },
  };
});
