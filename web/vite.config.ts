// Vite builds the SPA into dist/, which `make web` copies into
// internal/webui/dist for the Go binary to embed. In development the dev
// server proxies the API (and its SSE stream) to a running lab server.
import { defineConfig } from "vitest/config";
import solid from "vite-plugin-solid";

const api = process.env.LAB_URL ?? "http://127.0.0.1:8080";

export default defineConfig({
  plugins: [solid()],
  build: {
    target: "es2022",
    outDir: "dist",
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: false,
    // NOMINIFY=1 keeps names readable for CPU profiles of the built app.
    minify: process.env.NOMINIFY ? false : "oxc",
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The markdown renderer and its sanitizer (two thirds of a chat's
          // code) get a chunk of their own, fetched with the first screen
          // that shows markdown; everything else splits by screen
          // (src/routes/lazy.ts).
          groups: [{ name: "markdown", test: /node_modules[\\/](marked|dompurify)[\\/]|src[\\/]lib[\\/]markdown\.ts$/ }],
        },
      },
    },
  },
  server: {
    proxy: {
      "/api": { target: api, changeOrigin: false },
      "/healthz": { target: api },
    },
  },
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
  },
});
