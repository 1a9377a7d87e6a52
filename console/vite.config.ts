// Vite build of the admin console: Preact JSX through esbuild, relative URLs (served under /console/), no inline code.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  logLevel: 'warn',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The preload polyfill would be inline-free too, but every browser the console targets has modulepreload.
    modulePreload: { polyfill: false },
    // Never inline assets as data: URLs into scripts; the CSP allows images from 'self' and data: only.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
