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
        // round trip, and the frame (React, the router) is the same on every route. antd's core is one file
        // for the pages that use antd; the icons' few helpers (rc-util, colors) stay out of it, so the frame
        // and the plain pages, which show icons, load no antd.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|swr|use-sync-external-store|dequal)[\\/]/,
              priority: 20,
            },
            {
              // The icons and their colour helpers, and Babel's runtime helpers (the QR code uses them): used
              // by the plain pages too, so apart from antd's core, which would otherwise take them in.
              name: 'icons',
              test: /node_modules[\\/](@ant-design[\\/](icons|icons-svg|colors|fast-color)|clsx|@babel[\\/]runtime)[\\/]/,
              priority: 15,
            },
            {
              name: 'antd-core',
              test: /node_modules[\\/](@ant-design[\\/](cssinjs|cssinjs-utils)|@rc-component[\\/](motion|resize-observer|context)|stylis|@emotion|antd[\\/]es[\\/](_util|config-provider|theme|style|locale|version|button|alert|space|grid|form[\\/]context|form[\\/]validateMessagesContext))[\\/]/,
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
