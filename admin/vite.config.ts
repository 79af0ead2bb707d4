import react from '@vitejs/plugin-react';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const OUT = fileURLToPath(new URL('../dist/admin', import.meta.url));

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside every script and stylesheet, once, at build
 * time: the server sends the one the browser accepts (src/console), compressing nothing itself.
 */
const precompress = (): Plugin => ({
  name: 'precompress',
  apply: 'build',
  writeBundle() {
    const dir = join(OUT, 'assets');
    for (const file of readdirSync(dir)) {
      if (!/\.(js|css|svg)$/.test(file)) continue;
      const bytes = readFileSync(join(dir, file));
      writeFileSync(
        join(dir, `${file}.br`),
        brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      );
      writeFileSync(join(dir, `${file}.gz`), gzipSync(bytes, { level: 9 }));
    }
  },
});

/**
 * The editors' console, built into dist/admin/ (served by src/console under /admin/,
 * /hu/admin/, /ro/admin/): relative asset addresses, so one build serves every language prefix;
 * no inline script (the server's CSP allows scripts from 'self' only).
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react(), precompress()],
  build: {
    outDir: OUT,
    emptyOutDir: true,
    // Vite's module-preload helper is bundled, not inlined; nothing is inlined as data: URLs
    // but small images, which the CSP's img-src allows.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 2000,
    reportCompressedSize: false,
  },
});
