import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The web app imports wire types from libs/contracts sources; the gateway serves the build at `/`.
export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      '@forkvote/contracts': fileURLToPath(new URL('../libs/contracts/src/web.ts', import.meta.url)),
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  test: { environment: 'jsdom', include: ['src/**/*.test.{ts,tsx}'] },
});
