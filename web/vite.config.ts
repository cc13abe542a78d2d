import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';

// The web app imports wire types from libs/contracts sources; the gateway serves the build at `/`.
export default defineConfig({
  // Brotli and gzip copies of every text asset, made once at build; the gateway serves the one a browser takes.
  plugins: [
    react(),
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 }),
    // Installable, and the app's shell (its HTML, scripts, styles and icons) kept by a service worker, so a
    // reload on a bad network opens at once. The API is never cached: calls and event streams always go to
    // the network. Registered after the page has loaded (registerSW.js, deferred), which the CSP allows.
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: 'script-defer',
      manifest: {
        name: 'ForkVote',
        short_name: 'ForkVote',
        description: 'Decide where to eat, together.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#c2410c',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//i],
        runtimeCaching: [],
        cleanupOutdatedCaches: true,
        // A new worker takes over the open pages at once: the first visit is already kept for the next.
        clientsClaim: true,
        skipWaiting: true,
        // Web Push: showing rooms' notifications and opening the app on a tap.
        importScripts: ['/push-handler.js'],
      },
    }),
  ],
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
