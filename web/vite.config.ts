import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { compression } from 'vite-plugin-compression2';
import { defineConfig } from 'vitest/config';

// The web app imports wire types from libs/contracts sources; the gateway serves the build at `/`.
export default defineConfig({
  // Brotli and gzip copies of every text asset, made once at build; the gateway serves the one a browser takes.
  plugins: [react(), compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 })],
  resolve: {
    alias: {
      '@forkvote/contracts': fileURLToPath(new URL('../libs/contracts/src/web.ts', import.meta.url)),
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // What every page needs in two files rather than a dozen small ones: on a phone each request is a
        // round trip, and the frame (React, the router, antd's core) is the same on every route.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|swr|use-sync-external-store|dequal)[\\/]/,
              priority: 20,
            },
            {
              name: 'antd-core',
              test: /node_modules[\\/](@ant-design[\\/](cssinjs|cssinjs-utils|fast-color|colors)|@rc-component[\\/](util|motion|resize-observer|context)|stylis|@emotion|antd[\\/]es[\\/](_util|config-provider|theme|style|locale|version|button|alert|space|grid|form[\\/]context|form[\\/]validateMessagesContext))[\\/]/,
              priority: 10,
            },
            {
              name: 'app',
              test: /(web[\\/]src[\\/](api|auth|room[\\/](room-context|room-state|event-stream))|libs[\\/]contracts)[\\/.]/,
              priority: 5,
            },
          ],
        },
      },
    },
  },
  test: { environment: 'jsdom', include: ['src/**/*.test.{ts,tsx}'] },
});
